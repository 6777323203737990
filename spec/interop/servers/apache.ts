import { access, constants, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Daemon, onFreePort } from './daemon.js';
import { freePort } from './free-port.js';
import { MARKER, peerServer, type AuthArea, type PeerServer } from './peer.js';
import { PASSWORD, USER, fillTemplate, htdigestLine, htpasswdLine, installEchoCgi, makeSite, removeSite, writeSiteFile } from './site.js';

export const APACHE = '/usr/sbin/apache2';

const BASIC: AuthArea = { title: 'apache basic', scheme: 'basic', realm: 'basic area', path: '/basic/echo' };
const DIGEST: AuthArea = { title: 'apache digest MD5', scheme: 'digest', algorithm: 'MD5', realm: 'digest area', path: '/digest/echo' };
/** The protected paths of this server, known before it starts (for test titles). */
export const APACHE_AREAS: readonly AuthArea[] = [BASIC, DIGEST];

/**
 * Starts Apache httpd (Debian `apache2`) from `apache.conf.in` in a fresh folder on a free
 * 127.0.0.1 port: mod_auth_basic on /basic/, mod_auth_digest (MD5, qop=auth) on /digest/, the
 * echo CGI behind both and on /public/. User `alice`, password `wonderland`.
 */
export async function startApache(): Promise<PeerServer> {
  await access(APACHE, constants.X_OK).catch(() => {
    throw new Error(`${APACHE} is missing: apt-get install -y --no-install-recommends apache2 apache2-utils lighttpd`);
  });
  const root = await makeSite('apache');
  try {
    await installEchoCgi(root, 'cgi-bin');
    await writeSiteFile(root, 'htpasswd', htpasswdLine(USER, PASSWORD));
    await writeSiteFile(root, 'htdigest', htdigestLine(USER, DIGEST.realm, PASSWORD, 'MD5'));
    const configFile = join(root, 'httpd.conf');
    const errorLog = join(root, 'logs', 'error.log');
    return await onFreePort(freePort, async (port) => {
      await writeFile(configFile, await fillTemplate('apache.conf.in', { ROOT: root, PORT: port }));
      const origin = `http://127.0.0.1:${port}`;
      const daemon = await Daemon.start({
        name: 'apache',
        command: APACHE,
        args: ['-f', configFile, '-DFOREGROUND'],
        readyUrl: `${origin}${MARKER}`,
        logFiles: [errorLog],
      });
      return peerServer(daemon, { name: 'apache', origin, root, configFile, errorLog, areas: APACHE_AREAS });
    });
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}
