import type { Invocation } from './destructive-types.js';

/** Shells started from another program (`gdb -ex '!/bin/sh'`, `firejail /bin/sh`), and shells wired to the network. */
const SHELL_PATH = /(^|[\s!:('"=])(\/usr)?\/bin\/(ba|da|z|k|c|tc|fi|a)?sh\b/;
const NETWORK_DEVICE = /\/dev\/(tcp|udp)\/|\/inet\/(tcp|udp)\//;
const INLINE_SOCKET = /socket|Socket|ztcp|TCPServer|net\.(connect|createConnection|createServer)/;
const SOCKET_USE = /connect|bind|accept|ztcp|TCPSocket\.new|TCPServer|createServer/;
const NETCATS = new Set(['nc', 'ncat', 'netcat']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'csh', 'tcsh', 'fish']);

function remoteShellReason(run: Invocation): string | null {
  const words = [...run.args, ...run.redirects.map(({ target }) => target)];
  if (words.some((word) => NETWORK_DEVICE.test(word)))
    return `${run.name} connects its input or output to a network socket`;
  if (NETCATS.has(run.name) && run.args.some((arg) => /^(-e|-c|--exec|--sh-exec|--lua-exec)$/.test(arg)))
    return `${run.name} -e hands a program's input and output to the network`;
  if (run.name === 'socat' && run.args.some((arg) => /(^|,)(exec|system):/i.test(arg)))
    return 'socat runs a program wired to the other end of the connection';
  if (run.args.some((arg) => INLINE_SOCKET.test(arg) && SOCKET_USE.test(arg)))
    return `${run.name} opens a network connection from inline code`;
  if (run.name === 'code' && run.args[0] === 'tunnel')
    return 'code tunnel opens the machine to remote access';
  return null;
}

/** Reports remote shells, shells escaped from other programs and `awk` running commands. */
export function checkShellAccess(run: Invocation): void {
  const remote = remoteShellReason(run);
  if (remote !== null) run.report('remote_shell', remote);
  if (!SHELLS.has(run.name) && run.args.some((arg) => SHELL_PATH.test(arg)))
    run.report('shell_escape', `${run.name} starts a shell, which runs whatever it is given next`);
  if (/^[gnm]?awk$/.test(run.name) && run.args.some((arg) => /\bsystem\s*\(|\|&|\|\s*getline/.test(arg)))
    run.report('shell_escape', `${run.name} runs shell commands from its program`);
}

// Downloaders piped into a shell are reported as running a download instead.
const NETWORK_PROGRAMS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'ssh']);

/** A pipeline that joins a network program and a shell hands the shell to the other machine. */
export function pipelineJoinsShellToNetwork(programs: readonly string[]): boolean {
  return programs.some((name) => NETWORK_PROGRAMS.has(name)) && programs.some((name) => SHELLS.has(name));
}
