/**
 * Every file `standard-agents-cloudflare init` writes, in the order docs/deploy.md shows them.
 */
import { devVars, gitignore, packageJson, tsconfigJson, wranglerToml } from './config-files.js';
import { agentsIndex, countWordsTool, readme, workerEntry } from './source-files.js';
import type { ProjectVersions } from './versions.js';

export interface ProjectFile {
  /** Relative to the project's folder, with forward slashes. */
  path: string;
  text: string;
}

export function projectFiles(name: string, versions: ProjectVersions): ProjectFile[] {
  return [
    { path: 'package.json', text: packageJson(name, versions) },
    { path: 'wrangler.toml', text: wranglerToml(name) },
    { path: 'tsconfig.json', text: tsconfigJson() },
    { path: '.dev.vars', text: devVars() },
    { path: '.gitignore', text: gitignore() },
    { path: 'src/index.ts', text: workerEntry() },
    { path: 'agents/index.ts', text: agentsIndex() },
    { path: 'agents/tools/count_words.ts', text: countWordsTool() },
    { path: 'README.md', text: readme(name) },
  ];
}
