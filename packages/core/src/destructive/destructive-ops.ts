import { FRAMEWORK_RULES } from './destructive-frameworks.js';
import type { DestructiveCategory, Invocation, Rule } from './destructive-types.js';
import { hasFlag, nonOptions, parseArgs } from './shell-command.js';

const always =
  (category: DestructiveCategory, reason: string): Rule =>
  (run) =>
    run.report(category, reason);

const redisCli: Rule = (run) => {
  const command = run.args.find((arg) => /^(flushall|flushdb)$/i.test(arg));
  if (command !== undefined)
    run.report('database_wipe', `redis-cli ${command.toUpperCase()} deletes every key of the database`);
};

const MONGO_WIPE = /\.\s*(dropDatabase|drop)\s*\(|\.\s*(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/;

const mongoShell: Rule = (run) => {
  const args = parseArgs(run.args, new Set(['--eval', '--file', '-f', '--host', '--port', '-u', '-p']));
  const code = [...(args.values.get('--eval') ?? []), ...run.args.filter((arg) => MONGO_WIPE.test(arg))];
  if (code.some((text) => MONGO_WIPE.test(text)))
    run.report('database_wipe', `${run.name} drops a database or collection, or deletes every document`);
};

const mysqladmin: Rule = (run) => {
  if (nonOptions(run.args).some((word) => word === 'drop'))
    run.report('database_wipe', 'mysqladmin drop deletes the database');
};

/** `journalctl --vacuum-*` deletes archived journal files; every other use reads. */
const journalctl: Rule = (run) => {
  const vacuum = run.args.find((arg) => arg.startsWith('--vacuum-'));
  if (vacuum !== undefined)
    run.report('file_delete', `journalctl ${vacuum.replace(/=.*$/, '')} deletes journal files`);
};

/** Runs the command after `exec` and its options: `bundle exec rails db:drop`. */
function execRunner(valued: readonly string[], skip: number): Rule {
  const options = new Set(valued);
  return (run) => {
    const at = run.args.indexOf('exec');
    if (at === -1) return;
    let i = at + 1;
    while (i < run.args.length && (run.args[i] as string).startsWith('-')) {
      if (options.has(run.args[i] as string)) i++;
      i++;
    }
    if (run.args[i] === '--') i++;
    run.runCommand(run.args.slice(i + skip));
  };
}

const DOCKER_VALUED = ['-u', '--user', '-w', '--workdir', '-e', '--env', '--env-file', '--detach-keys'];
const dockerExec = execRunner(DOCKER_VALUED, 1);

const docker: Rule = (run) => {
  const [first, second] = nonOptions(run.args);
  const args = parseArgs(run.args);
  if (first === 'exec') return dockerExec(run);
  if (first === 'system' && second === 'prune')
    return run.report('container_wipe', `${run.name} system prune deletes containers, images and volumes`);
  if (first === 'volume' && (second === 'rm' || second === 'prune'))
    return run.report('container_wipe', `${run.name} volume ${second} deletes volumes and their data`);
  if (['container', 'image', 'network', 'builder'].includes(first ?? '') && second === 'prune')
    return run.report('container_wipe', `${run.name} ${first} prune deletes every unused ${first}`);
  if ((first === 'compose' && second === 'down') || first === 'down')
    if (hasFlag(args, '-v', '--volumes', '--rmi'))
      run.report('container_wipe', `${run.name} compose down -v deletes the project's volumes`);
};

const kubectlExec = execRunner(['-c', '--container', '-n', '--namespace'], 0);

const CLOUD_DELETE_VERB = /^(delete|terminate|deregister|destroy|purge|remove|rb)(-|$)/;

const AWS_VALUED = new Set([
  '--profile',
  '--region',
  '--endpoint-url',
  '--output',
  '--query',
  '--exclude',
  '--include',
]);

const aws: Rule = (run) => {
  const args = parseArgs(run.args, AWS_VALUED);
  const [service, sub] = args.operands;
  if (service === undefined || sub === undefined) return;
  if (service === 's3') {
    if (hasFlag(args, '--dryrun') || args.operands[2] === 'help') return;
    if (sub === 'rm')
      run.report(
        'cloud_storage_delete',
        hasFlag(args, '--recursive')
          ? 'aws s3 rm --recursive deletes every object under the prefix'
          : 'aws s3 rm deletes an object from the bucket',
      );
    if (sub === 'rb' && hasFlag(args, '--force'))
      run.report('cloud_storage_delete', 'aws s3 rb --force deletes the bucket and all its objects');
    return;
  }
  if (CLOUD_DELETE_VERB.test(sub))
    run.report('cloud_delete', `aws ${service} ${sub} deletes cloud resources`);
};

/** gcloud, az, doctl, heroku, fly: any `delete`/`destroy` verb removes a cloud resource. */
function cloudCli(name: string): Rule {
  return (run) => {
    const verb = nonOptions(run.args).find((word) =>
      /^(delete|destroy|purge|apps:destroy|pg:reset)$/.test(word),
    );
    if (verb !== undefined) run.report('cloud_delete', `${name} … ${verb} deletes cloud resources`);
  };
}

const PARTITION_LIST = new Set(['-l', '--list', 'print', '-p', '--print']);

const partitioner: Rule = (run) => {
  if (!run.args.some((arg) => PARTITION_LIST.has(arg)))
    run.report('filesystem_format', `${run.name} rewrites the partition table of a disk`);
};

const POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate']);

const systemctl: Rule = (run) => {
  const sub = nonOptions(run.args)[0] ?? '';
  if (POWER.has(sub)) run.report('system_change', `systemctl ${sub} stops the machine`);
  else if (['stop', 'disable', 'mask', 'kill', 'isolate'].includes(sub))
    run.report('system_change', `systemctl ${sub} stops or disables system services`);
};

const kill: Rule = (run) => {
  const targets = nonOptions(run.args).concat(run.args.filter((arg) => arg === '-1'));
  // `kill -9 -1` reads -9 as the signal; a later -1 is every process the user may signal.
  const signal = run.args.findIndex((arg) => /^-(\d+|[A-Z]+|s|n)$/.test(arg));
  const all = run.args.some((arg, i) => arg === '-1' && i !== signal) || targets.includes('1');
  if (all) run.report('system_change', 'kill -1 signals every process (or init), stopping the machine');
};

const init: Rule = (run) => {
  if (['0', '6', 's', 'S', '1'].includes(run.args[0] ?? ''))
    run.report('system_change', `${run.name} ${run.args[0]} changes the machine's run level`);
};

const crontab: Rule = (run) => {
  if (run.args.includes('-r')) run.report('system_change', 'crontab -r deletes every scheduled job');
  else if (nonOptions(run.args).length > 0)
    run.report('system_change', 'crontab replaces the scheduled jobs');
};

const firewall: Rule = (run) => {
  if (run.args.some((arg) => ['-F', '--flush', '-X', 'flush', 'disable', 'reset'].includes(arg)))
    run.report('system_change', `${run.name} removes firewall rules`);
};

/** Programs that send data to another machine, and the options whose `@file` value is read from disk. */
const UPLOADERS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'telnet']);

/** The files an uploader sends: `-d @~/.aws/credentials`, `-F f=@id_rsa`, `-T .env`, `--post-file=.env`. */
export function uploadedFiles(run: Pick<Invocation, 'name' | 'args'>): string[] {
  if (!UPLOADERS.has(run.name)) return [];
  const files: string[] = [];
  run.args.forEach((arg, i) => {
    const next = run.args[i + 1] ?? '';
    const inline = arg.match(/^--(?:post-file|body-file|upload-file|data[\w-]*)=@?(.+)$/)?.[1];
    if (inline !== undefined) files.push(inline);
    if (/^(-d|--data[\w-]*|-F|--form)$/.test(arg) && next.includes('@'))
      files.push(next.slice(next.indexOf('@') + 1).replace(/;.*$/, ''));
    if (/^(-T|--upload-file|--post-file|--body-file)$/.test(arg)) files.push(next);
    if (/^[\w-]+@/.test(arg) && run.name.match(/^https?$|^xh$/)) files.push(arg.slice(arg.indexOf('@') + 1));
  });
  return files.filter((file) => file !== '' && file !== '-');
}

const rsync: Rule = (run) => {
  if (run.args.some((arg) => /^--(delete|remove-source-files)/.test(arg)))
    run.report('file_delete', 'rsync --delete removes files from the destination (or its sources)');
};

/** Rules for database wipes, containers, cloud resources and the machine itself. */
export const OPERATIONS_RULES: Readonly<Record<string, Rule>> = {
  rmdir: always('file_delete', 'rmdir deletes directories'),
  srm: always('file_delete', 'srm deletes files so they cannot be recovered'),
  rsync,
  'redis-cli': redisCli,
  mongosh: mongoShell,
  mongo: mongoShell,
  mysqladmin,
  ...FRAMEWORK_RULES,
  dropdb: always('database_wipe', 'dropdb deletes the database'),
  bundle: execRunner([], 0),
  docker,
  podman: docker,
  'docker-compose': (run) => docker({ ...run, args: ['compose', ...run.args] }),
  kubectl: kubectlExec,
  oc: kubectlExec,
  aws,
  gcloud: cloudCli('gcloud'),
  az: cloudCli('az'),
  doctl: cloudCli('doctl'),
  heroku: cloudCli('heroku'),
  fly: cloudCli('fly'),
  flyctl: cloudCli('flyctl'),
  parted: partitioner,
  fdisk: partitioner,
  sfdisk: partitioner,
  gdisk: partitioner,
  sgdisk: partitioner,
  cfdisk: always('filesystem_format', 'cfdisk rewrites the partition table of a disk'),
  blkdiscard: always('filesystem_format', 'blkdiscard discards every block of the device, erasing it'),
  journalctl,
  shutdown: always('system_change', 'shutdown stops the machine'),
  reboot: always('system_change', 'reboot restarts the machine'),
  halt: always('system_change', 'halt stops the machine'),
  poweroff: always('system_change', 'poweroff stops the machine'),
  systemctl,
  init,
  telinit: init,
  kill,
  killall5: always('system_change', 'killall5 signals every process on the machine'),
  crontab,
  iptables: firewall,
  ip6tables: firewall,
  ufw: firewall,
  nft: firewall,
  userdel: always('system_change', 'userdel deletes a user account'),
  useradd: always('system_change', 'useradd adds a user account to the machine'),
  usermod: always('system_change', 'usermod changes a user account'),
  passwd: always('system_change', 'passwd changes an account password'),
  chpasswd: always('system_change', 'chpasswd changes account passwords'),
  visudo: always('system_change', 'visudo changes who may run commands as root'),
};
