import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);

// src/core/providers.ts
var PROVIDERS = [
  {
    id: "anthropic",
    name: "Anthropic",
    key: {
      variable: "ANTHROPIC_API_KEY",
      required: true,
      input: "anthropic-api-key",
      option: "anthropicApiKey"
    },
    baseUrl: {
      variable: "ANTHROPIC_BASE_URL",
      default: "https://api.anthropic.com",
      input: "anthropic-base-url",
      option: "anthropicBaseUrl",
      configKey: "anthropic"
    },
    families: ["anthropic"],
    defaultModel: "anthropic:claude-sonnet-4-5",
    example: "anthropic:claude-sonnet-4-5"
  },
  {
    id: "openai",
    name: "OpenAI",
    key: { variable: "OPENAI_API_KEY", required: true, input: "openai-api-key", option: "openaiApiKey" },
    baseUrl: {
      variable: "OPENAI_BASE_URL",
      default: "https://api.openai.com/v1",
      input: "openai-base-url",
      option: "openaiBaseUrl",
      configKey: "openai"
    },
    families: ["openai"],
    defaultModel: "openai:gpt-5",
    example: "openai:gpt-5"
  },
  {
    // Any server speaking OpenAI Chat Completions (ollama, vLLM, llama.cpp, LiteLLM): OpenAI's variables.
    id: "openai-compatible",
    name: "an OpenAI-compatible server",
    key: { variable: "OPENAI_API_KEY", required: false, input: "openai-api-key", option: "compatibleApiKey" },
    baseUrl: {
      variable: "OPENAI_BASE_URL",
      needs: "the server's OpenAI-compatible /v1 URL, e.g. http://localhost:11434/v1 for ollama",
      input: "openai-base-url",
      option: "compatibleBaseUrl",
      configKey: "openaiCompatible"
    },
    families: [],
    example: "openai-compatible:qwen3"
  },
  { id: "offline", name: "the offline provider", families: [], example: "offline" }
];
var ALL = PROVIDERS;
var MODEL_PROVIDERS = ALL.filter((p) => p.key !== void 0);
var BY_NAME = Object.fromEntries(MODEL_PROVIDERS.map((p) => [p.id, p]));
function isProviderName(name) {
  return Object.hasOwn(BY_NAME, name);
}
function modelProvider(name) {
  return BY_NAME[name];
}
function unique(values) {
  return [...new Set(values)];
}
var KEY_VARIABLES = unique(MODEL_PROVIDERS.map((p) => p.key.variable));
var BASE_URL_VARIABLES = unique(MODEL_PROVIDERS.map((p) => p.baseUrl.variable));
var PROVIDER_INPUTS = [
  ...MODEL_PROVIDERS.map((p) => ({ ...p.key, kind: "key" })),
  ...MODEL_PROVIDERS.map((p) => ({ ...p.baseUrl, kind: "base URL" }))
].flatMap(
  ({ input, variable, kind }) => input === void 0 ? [] : [{ input, variable, kind }]
).filter((entry, index, all) => all.findIndex((other) => other.input === entry.input) === index);
function isSet(value) {
  return value !== void 0 && value.trim() !== "";
}
var DEFAULT_MODEL_PROVIDERS = MODEL_PROVIDERS.filter(
  (p) => p.defaultModel !== void 0
);
function keyedDefaultProviders(env) {
  return DEFAULT_MODEL_PROVIDERS.filter((p) => isSet(env[p.key.variable]));
}
function hasModelKey(env) {
  return KEY_VARIABLES.some((name) => isSet(env[name]));
}
function baseUrlVariablesNote(env) {
  const set = BASE_URL_VARIABLES.filter((variable) => isSet(env[variable]));
  if (set.length === 0) return void 0;
  return set.map((variable) => {
    const ids = MODEL_PROVIDERS.filter((p) => p.baseUrl.variable === variable).map(
      (p) => `${p.id}:<model>`
    );
    const keyless = MODEL_PROVIDERS.filter((p) => p.baseUrl.variable === variable && !p.key.required);
    const noKey = keyless.length > 0 ? ` (${keyless.map((p) => p.id).join(", ")} needs no key)` : "";
    return `${variable} is set: ${ids.join(" or ")} sends there${noKey}`;
  }).join("; ");
}
function credentialFreeUrl(baseUrl) {
  let url;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return "not a URL";
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

// src/action/mask.ts
var SECRET_INPUTS = [
  "github-token",
  ...PROVIDER_INPUTS.filter((p) => p.kind === "key").map((p) => p.input)
];
var URL_INPUTS = PROVIDER_INPUTS.filter((p) => p.kind === "base URL").map((p) => p.input);
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
  for (const name of KEY_VARIABLES) {
    const value = env[name]?.trim();
    if (value) secrets.push(value);
  }
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name]?.trim();
    if (value?.includes("@")) secrets.push(value);
  }
  return secrets;
}
function maskSecretInputs(env = process.env, write = (text) => void process.stdout.write(text)) {
  for (const secret of secretsToMask(env)) write(addMaskCommand(secret));
}

export {
  PROVIDERS,
  MODEL_PROVIDERS,
  isProviderName,
  modelProvider,
  KEY_VARIABLES,
  BASE_URL_VARIABLES,
  PROVIDER_INPUTS,
  DEFAULT_MODEL_PROVIDERS,
  keyedDefaultProviders,
  hasModelKey,
  baseUrlVariablesNote,
  credentialFreeUrl,
  SECRET_INPUTS,
  maskSecretInputs
};
