import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);
import {
  require_token_util
} from "./chunk-B2PFP7HZ.js";
import "./chunk-L5MOVZ75.js";
export default require_token_util();
