import { describe, expect, it } from 'vitest';
import { classifyAlwaysGated } from './destructive.js';

const categoriesOf = (command: string) => classifyAlwaysGated({ tool: 'bash', args: { command } });

describe('package managers of every system', () => {
  it.each([
    'apk add curl',
    'apk fix openssl',
    'apk del curl',
    'dnf distro-sync',
    'yum groupinstall "Development Tools"',
    'zypper dup',
    'flatpak install flathub org.gimp.GIMP',
    'flatpak update',
    'flatpak uninstall org.gimp.GIMP',
    'snap refresh firefox',
    'rpm -Uvh package.rpm',
    'rpm --erase package',
    'dpkg -i package.deb',
    'dpkg --purge package',
    'softwareupdate --install --all',
    'softwareupdate -ia',
    'pkg install nginx',
    'pkg delete nginx',
    'pkg_add -u',
    'pkg_delete vim',
    'pkgin install tmux',
    'pkgadd -d package.pkg',
    'xbps-install -Su',
    'xbps-remove -R foo',
    'emerge --ask www-client/firefox',
    'emerge --depclean',
    'nix-env -iA nixpkgs.hello',
    'nix profile install nixpkgs#hello',
    'brew uninstall wget',
    'mas install 497799835',
    'installer -pkg package.pkg -target /',
    'adb install app.apk',
    'pm uninstall com.example.app',
    'opkg install nano',
    'pkg i package',
    'pkg un package',
    'pm install-existing app',
    'pacman -Syu',
    'pacman -S nginx',
    'pacman -Rns nginx',
    'pacman -U package.pkg.tar.zst',
  ])('%s changes the system packages', (command) => {
    expect(categoriesOf(command)).toContain('system_packages');
  });

  it.each([
    'apt-get update',
    'apk update',
    'apk search curl',
    'dnf search nginx',
    'flatpak list',
    'rpm -qa',
    'rpm -q --changelog package',
    'dpkg -l',
    'dpkg -L package',
    'softwareupdate --list',
    'pkg info',
    'pkg search nginx',
    'emerge --search firefox',
    'emerge --pretend --update @world',
    'nix-env -q',
    'brew list',
    'adb devices',
    'pkgin search tmux',
    'pacman -Ss nginx',
    'pacman -Qi nginx',
    'pacman -Sy',
    'rpm -qi package',
  ])('%s changes no package', (command) => {
    expect(categoriesOf(command)).not.toContain('system_packages');
  });

  it('reads pm clear as deleting the app data', () => {
    expect(categoriesOf('pm clear com.example.app')).toContain('delete_files');
  });
});
