import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);
import {
  require_token_util
} from "./chunk-DSMWVXXQ.js";
import "./chunk-L5MOVZ75.js";
export default require_token_util();
