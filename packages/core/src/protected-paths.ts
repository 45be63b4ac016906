/** Paths whose modification always needs a person, and paths that stay out of the read-only class. */

const SECRET_NAME =
  /(^|[/\\])(\.env(\.[\w.-]+)?|\.envrc|secrets?(\.[\w]+)?|credentials(\.[\w]+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|[\w.-]+\.(pem|key|p12|pfx|jks|keystore|kdbx)|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|authorized_keys|known_hosts|shadow|gshadow|sudoers|htpasswd|\.htpasswd)$/i;
const SECRET_DIR =
  /(^|[/\\])(\.ssh|\.aws|\.gnupg|\.kube|\.docker|\.azure|\.config[/\\]gcloud|secrets)([/\\]|$)/i;
const PRODUCTION_CONFIG =
  /(^|[/\\_.-])(prod|production)([/\\_.-]|$).*\.(ya?ml|json|toml|ini|conf|cfg|env|tf|tfvars|properties|xml)$|(^|[/\\])(prod|production)\.(ya?ml|json|toml|ini|conf|cfg|properties)$/i;
/** The host's own configuration and programs: writing there changes the machine, not the project. */
const SYSTEM_FILE =
  /^(\/(etc|usr|bin|sbin|lib\w*|boot|dev|proc|sys|root|var\/spool\/cron|var\/lib)(\/|$)|~\/\.(bashrc|bash_profile|profile|zshrc|zprofile|ssh|config\/autostart)|\$HOME\/\.(bashrc|bash_profile|profile|zshrc|ssh))/;
const SAFE_DEVICE = /^\/dev\/(null|zero|full|u?random|stdin|stdout|stderr|tty|fd\/.*|pts\/.*|shm\/.*)$/;

/** True for .env files, keys, credentials and the folders that keep them (`~/.ssh`, `~/.aws`). */
export function isSecretPath(path: string): boolean {
  return SECRET_NAME.test(path) || SECRET_DIR.test(path);
}

/** True for configuration that runs production (`deploy/production/values.yaml`, `prod.json`). */
export function isProductionConfig(path: string): boolean {
  return PRODUCTION_CONFIG.test(path);
}

/** True for the host's configuration and programs (`/etc/sudoers`, `/usr/bin`, `~/.bashrc`). */
export function isSystemFile(path: string): boolean {
  return SYSTEM_FILE.test(path) && !SAFE_DEVICE.test(path);
}

/** True for devices that are safe to write to (`/dev/null`, `/dev/stderr`). */
export function isSafeDevice(path: string): boolean {
  return SAFE_DEVICE.test(path);
}

/** Which always-gated kind of file a write to `path` touches, if any. */
export type ProtectedKind = 'secret' | 'production_config' | 'system';

/** The protected kind of `path`, or null when it is an ordinary file. */
export function protectedKindOf(path: string): ProtectedKind | null {
  if (isSecretPath(path)) return 'secret';
  if (isProductionConfig(path)) return 'production_config';
  if (isSystemFile(path)) return 'system';
  return null;
}

/**
 * True when `path` stays inside the working directory: relative, no `..` segment, no home or
 * variable, no glob that could reach a secret.
 */
export function isWorkspacePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.startsWith('~') || path.includes('$')) return false;
  if (/^[A-Za-z]:|^\\\\/.test(path)) return false;
  return !path.split(/[/\\]/).some((segment) => segment === '..');
}
