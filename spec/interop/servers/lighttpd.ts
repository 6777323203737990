import { access, constants, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Daemon, onFreePort } from './daemon.js';
import { freePort } from './free-port.js';
import { MARKER, peerServer, type AuthArea, type PeerServer } from './peer.js';
import { PASSWORD, USER, fillTemplate, htdigestLine, installEchoCgi, makeSite, removeSite, writeSiteFile } from './site.js';

export const LIGHTTPD = '/usr/sbin/lighttpd';

const SHA256: AuthArea = { title: 'lighttpd digest SHA-256', scheme: 'digest', algorithm: 'SHA-256', realm: 'sha256 area', path: '/sha256/echo' };
const MD5: AuthArea = { title: 'lighttpd digest MD5', scheme: 'digest', algorithm: 'MD5', realm: 'md5 area', path: '/md5/echo' };
/** The protected paths of this server, known before it starts (for test titles). */
export const LIGHTTPD_AREAS: readonly AuthArea[] = [SHA256, MD5];

/**
 * Starts lighttpd from `lighttpd.conf.in` in a fresh folder on a free 127.0.0.1 port: Digest
 * SHA-256 on /sha256/, Digest MD5 on /md5/ (qop=auth both), the echo CGI behind both and on
 * /public/. User `alice`, password `wonderland`.
 */
export async function startLighttpd(): Promise<PeerServer> {
  await access(LIGHTTPD, constants.X_OK).catch(() => {
    throw new Error(`${LIGHTTPD} is missing: apt-get install -y --no-install-recommends apache2 apache2-utils lighttpd`);
  });
  const root = await makeSite('lighttpd');
  try {
    for (const dir of ['htdocs/sha256', 'htdocs/md5', 'htdocs/public']) await installEchoCgi(root, dir);
    await writeSiteFile(root, 'htdigest-sha256', htdigestLine(USER, SHA256.realm, PASSWORD, 'SHA-256'));
    await writeSiteFile(root, 'htdigest-md5', htdigestLine(USER, MD5.realm, PASSWORD, 'MD5'));
    const configFile = join(root, 'lighttpd.conf');
    const errorLog = join(root, 'logs', 'error.log');
    return await onFreePort(freePort, async (port) => {
      await writeFile(configFile, await fillTemplate('lighttpd.conf.in', { ROOT: root, PORT: port }));
      const origin = `http://127.0.0.1:${port}`;
      const daemon = await Daemon.start({
        name: 'lighttpd',
        command: LIGHTTPD,
        args: ['-D', '-f', configFile],
        readyUrl: `${origin}${MARKER}`,
        logFiles: [errorLog],
      });
      return peerServer(daemon, { name: 'lighttpd', origin, root, configFile, errorLog, areas: LIGHTTPD_AREAS });
    });
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}
