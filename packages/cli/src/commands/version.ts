import type { Command } from '../command.js';
import { printJson } from '../output.js';
import { cliVersion } from '../version.js';

/** `gatehouse version`: the same as `gatehouse --version`. */
export const versionCommand: Command = {
  name: 'version',
  summary: 'Print the version of this command line (the same as --version)',
  actions: [
    {
      name: '',
      summary: 'Print the version of this command line (the same as --version)',
      examples: ['gatehouse version', 'gatehouse version --json'],
      async run({ io, json }) {
        if (json) printJson(io, { version: cliVersion() });
        else io.stdout.write(`${cliVersion()}\n`);
        return 0;
      },
    },
  ],
};
