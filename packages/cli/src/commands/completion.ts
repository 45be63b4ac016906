import type { Command } from '../command.js';
import { type CompletionShell, completionScript, SHELLS } from '../completion.js';
import { UsageError } from '../errors.js';

/** `gatehouse completion bash|zsh|fish`, generated from `commands()`, the binary's own command table. */
export function createCompletionCommand(commands: () => readonly Command[]): Command {
  return {
    name: 'completion',
    summary: 'Print a shell completion script for bash, zsh or fish',
    actions: [
      {
        name: '',
        summary: 'Print a shell completion script for bash, zsh or fish',
        args: '<shell>',
        positionals: { min: 1, max: 1 },
        choices: SHELLS,
        json: false,
        details:
          'The script completes commands, subcommands and options from the same table `--help` prints.\n' +
          'bash: add `source <(gatehouse completion bash)` to ~/.bashrc.\n' +
          'zsh:  `gatehouse completion zsh > ~/.zfunc/_gatehouse` with ~/.zfunc in fpath, then start a new shell.\n' +
          'fish: `gatehouse completion fish > ~/.config/fish/completions/gatehouse.fish`.',
        examples: ['source <(gatehouse completion bash)'],
        async run({ io, positionals, command }) {
          const shell = positionals[0] as string;
          if (!(SHELLS as readonly string[]).includes(shell)) {
            throw new UsageError(`the shell must be one of ${SHELLS.join(', ')} (got "${shell}")`, command);
          }
          io.stdout.write(completionScript(shell as CompletionShell, commands()));
          return 0;
        },
      },
    ],
  };
}
