/** Shared by the CLI process tests: building the CLI bundle they spawn. */
import * as path from 'node:path';
import * as esbuild from 'esbuild';

/** The repository root, four levels above out/test/unit/cli/. */
export const REPO = path.resolve(__dirname, '../../../..');

/**
 * Bundles src/cli/main.ts into `outfile` the way `npm run build` bundles dist/cli.js, fresh from
 * the current sources (dist/ may be stale). Build errors arrive in the rejection's message.
 */
export async function bundleCli(outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(REPO, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
}
