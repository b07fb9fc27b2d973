// `claude-memory` headless CLI: filled in by the CLI work.
process.stdout.write('claude-memory: not implemented yet\n');
