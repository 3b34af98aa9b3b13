// The review models both review benches use: the real provider layer of a build (`engine`, this build's or
// the --baseline-ref's), a reviewer on the Anthropic API and an executor on the OpenAI API, both pointed at
// the bench's loopback model server, with no retries (a failed call is a bench failure, not a wait).

/** `engine`: a build's engine module; `serverUrl`: the loopback model server's base URL. */
export function benchReviewModels(engine, serverUrl) {
  const env = {
    ANTHROPIC_API_KEY: 'bench-anthropic-key',
    ANTHROPIC_BASE_URL: serverUrl,
    OPENAI_API_KEY: 'bench-openai-key',
    OPENAI_BASE_URL: `${serverUrl}/v1`,
  };
  const options = { retry: { maxAttempts: 1 } };
  return engine.createReviewModels({
    reviewer: engine.buildRoleModel(
      'reviewer',
      engine.parseModelId('anthropic:claude-sonnet-4-5'),
      env,
      options,
    ),
    executor: engine.buildRoleModel('executor', engine.parseModelId('openai:gpt-5'), env, options),
    settings: engine.callSettings(options),
  });
}
