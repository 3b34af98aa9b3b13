import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);

// src/action/mask.ts
var SECRET_INPUTS = ["github-token", "anthropic-api-key", "openai-api-key"];
var URL_INPUTS = ["anthropic-base-url", "openai-base-url"];
var SECRET_ENV = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];
function inputValue(name, env) {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}
function addMaskCommand(secret) {
  const value = secret.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return `::add-mask::${value}
`;
}
function secretsToMask(env) {
  const secrets = [];
  for (const name of SECRET_INPUTS) {
    const value = inputValue(name, process.env);
    if (value) secrets.push(value);
  }
  for (const name of URL_INPUTS) {
    const value = inputValue(name, process.env);
    if (value.includes("@")) secrets.push(value);
  }
  for (const name of SECRET_ENV) {
    const value = env[name]?.trim();
    if (value) secrets.push(value);
  }
  return secrets;
}
function maskSecretInputs(env = process.env, write = (text) => void process.stdout.write(text)) {
  for (const secret of secretsToMask(env)) write(addMaskCommand(secret));
}

export {
  SECRET_INPUTS,
  maskSecretInputs
};
