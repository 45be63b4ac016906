/** Paths whose modification always needs a person, and paths that stay out of the read-only class. */

const SECRET_NAME =
  /(^|[/\\])(\.env(\.[\w.-]+)?|\.envrc|secrets?(\.[\w]+)?|credentials(\.[\w]+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|[\w.-]+\.(pem|key|p12|pfx|jks|keystore|kdbx)|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|authorized_keys|known_hosts|shadow|gshadow|sudoers|htpasswd|\.htpasswd)$/i;
/** Data files named for what they keep (`client_secret.json`, `aws-credentials.cfg`), and `.env` files by any prefix. */
const SECRET_DATA =
  /(^|[/\\])([\w.-]*[._-])?(secret|credential)s?([._-][\w.-]*)?\.(ya?ml|json|toml|ini|cfg|conf|env|properties|xml|enc|txt|key|exs?|rb)$|(^|[/\\])[\w-]+(\.[\w-]+)*\.env(\.(?!(ts|tsx|js|mjs|cjs|py|rb|go|rs|java|md)$)[\w-]+)*$/i;
/** Anything under a configuration folder whose name says secret or credential (`config/initializers/secret_token.rb`). */
const SECRET_CONFIG = /(^|[/\\])(config|conf|settings)[/\\](.*[/\\])?[\w.-]*(secret|credential)s?[\w.-]*$/i;
const SECRET_DIR =
  /(^|[/\\])(\.ssh|\.aws|\.gnupg|\.kube|\.docker|\.azure|\.config[/\\]gcloud|secrets)([/\\]|$)/i;
/** Per-environment files under a configuration folder, whatever their language (`config/environments/production.rb`). */
const PRODUCTION_ENVIRONMENT =
  /(^|[/\\])(config|conf|settings|environments?)[/\\](.*[/\\])?(prod|production)([._-][\w.-]*)?\.(?!(md|txt|rst|adoc)$)\w+$/i;
const PRODUCTION_CONFIG =
  /(^|[/\\_.-])(prod|production)([/\\_.-]|$).*\.(ya?ml|json|toml|ini|conf|cfg|env|tf|tfvars|properties|xml)$|(^|[/\\])(prod|production)\.(ya?ml|json|toml|ini|conf|cfg|properties)$/i;
/** The host's own configuration and programs: writing there changes the machine, not the project. */
const SYSTEM_FILE =
  /^(\/(etc|usr|bin|sbin|lib\w*|boot|dev|proc|sys|root|var\/spool\/cron|var\/lib)(\/|$)|~\/\.(bashrc|bash_profile|profile|zshrc|zprofile|ssh|config\/autostart)|\$HOME\/\.(bashrc|bash_profile|profile|zshrc|ssh))/;
const SAFE_DEVICE = /^\/dev\/(null|zero|full|u?random|stdin|stdout|stderr|tty|fd\/.*|pts\/.*|shm\/.*)$/;

/** True for .env files, keys, credentials and the folders that keep them (`~/.ssh`, `~/.aws`). */
export function isSecretPath(path: string): boolean {
  return (
    SECRET_NAME.test(path) || SECRET_DATA.test(path) || SECRET_CONFIG.test(path) || SECRET_DIR.test(path)
  );
}

/** True for configuration that runs production (`deploy/production/values.yaml`, `prod.json`). */
export function isProductionConfig(path: string): boolean {
  return PRODUCTION_CONFIG.test(path) || PRODUCTION_ENVIRONMENT.test(path);
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
