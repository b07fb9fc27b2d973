/**
 * The session defaults shared by the extension's settings and the `claude-memory run` CLI, kept
 * here (vscode-free) so both read one source. package.json `contributes.configuration` must
 * repeat these values (JSON cannot import); test/unit/agent/defaults.test.ts checks that it does.
 */
export const AGENT_DEFAULTS = {
  model: 'claude-opus-5-5',
  maxTokens: 8192,
  maxTurns: 30,
} as const;
