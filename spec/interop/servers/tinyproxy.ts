import { access, chmod, constants, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Daemon, onFreePort } from './daemon.js';
import { freePort } from './free-port.js';
import { PROXY_MARKER, proxyPeer, type ProxyLogEntry, type ProxyPeer } from './proxy-peer.js';
import { fillTemplate, makeSite, removeSite } from './site.js';

export const TINYPROXY = '/usr/bin/tinyproxy';
/** Where tinyproxy connects to servers from (squid's flavours use 127.0.0.2 to .4). */
const OUTGOING = '127.0.0.5';

/**
 * Starts tinyproxy (Debian `tinyproxy`) from `tinyproxy.conf.in` in a fresh folder on a free
 * 127.0.0.1 port, in the foreground (`-d`): an open forward proxy with CONNECT to any port,
 * connecting to servers from 127.0.0.5.
 *
 * tinyproxy answers an absolute-form request with HTTP/1.1 and no `Connection: close`, then
 * closes the client connection anyway: a client that keeps it for the next request finds it
 * closed (a stale kept-alive connection). A CONNECT tunnel stays open as long as both sides do.
 */
export async function startTinyproxy(): Promise<ProxyPeer> {
  await access(TINYPROXY, constants.X_OK).catch(() => {
    throw new Error(`${TINYPROXY} is missing: apt-get install -y --no-install-recommends squid tinyproxy apache2-utils`);
  });
  const root = await makeSite('tinyproxy');
  try {
    // started as root it serves as nobody, and removes its pid file as nobody when it stops
    await chmod(join(root, 'run'), 0o777);
    const configFile = join(root, 'tinyproxy.conf');
    const errorLog = join(root, 'logs', 'tinyproxy.log');
    // as root tinyproxy would serve as root (with a warning); it opens its log and pid file first
    const user = process.getuid?.() === 0 ? 'User nobody\nGroup nogroup' : '# not root: tinyproxy stays the user that started it';
    return await onFreePort(freePort, async (port) => {
      await writeFile(configFile, await fillTemplate('tinyproxy.conf.in', { ROOT: root, PORT: port, OUTGOING, USER: user }));
      const daemon = await Daemon.start({
        name: 'tinyproxy',
        command: TINYPROXY,
        args: ['-d', '-c', configFile],
        readyUrl: `http://127.0.0.1:${port}${PROXY_MARKER}?ready`,
        readyStatus: 400,
        logFiles: [errorLog],
      });
      return proxyPeer(
        daemon,
        {
          name: 'tinyproxy',
          title: 'tinyproxy',
          via: 'hb-interop-tinyproxy',
          outgoingAddress: OUTGOING,
          auth: 'none',
          realm: undefined,
          port,
          root,
          configFile,
          errorLog,
        },
        { path: errorLog, parse: parseTinyproxyLine },
      );
    });
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}

// CONNECT   Nov 26 13:28:19.605 [15590]: Request (file descriptor 5): GET http://127.0.0.1:39200/ HTTP/1.1
const REQUEST = /\]: Request \(file descriptor \d+\): (\S+) (\S+)/;

/** A `Request (file descriptor N): METHOD TARGET HTTP/1.1` line; tinyproxy logs no status and no user. */
function parseTinyproxyLine(line: string): ProxyLogEntry | undefined {
  const match = REQUEST.exec(line);
  if (match === null) return undefined;
  const [, method = '', target = ''] = match;
  return { method, target, status: undefined, user: undefined, line };
}
