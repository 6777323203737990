import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, constants, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Daemon, onFreePort } from './daemon.js';
import { freePort } from './free-port.js';
import { parseLogLine } from './access-log.js';
import { PROXY_MARKER, proxyPeer, type ProxyAuthScheme, type ProxyPeer } from './proxy-peer.js';
import { PASSWORD, USER, fillTemplate, makeSite, removeSite, writeSiteFile } from './site.js';

const execFileAsync = promisify(execFile);

export const SQUID = '/usr/sbin/squid';
/** squid's Basic helper: checks `user password` lines against an htpasswd file (crypt, MD5, apr1; not `{SHA}`). */
export const SQUID_BASIC_HELPER = '/usr/lib/squid/basic_ncsa_auth';
/** squid's Digest helper: reads plain `user:password` lines and answers squid with H(A1), MD5 only. */
export const SQUID_DIGEST_HELPER = '/usr/lib/squid/digest_file_auth';
const HTPASSWD = '/usr/bin/htpasswd';

/** The realm of each squid flavour's `Proxy-Authenticate` challenge. */
export const SQUID_REALMS = { basic: 'squid basic', digest: 'squid digest' } as const;

const TITLES: Readonly<Record<ProxyAuthScheme, string>> = { none: 'squid open', basic: 'squid basic', digest: 'squid digest' };
/** Where each flavour connects to servers from (tinyproxy uses 127.0.0.5). */
const OUTGOING: Readonly<Record<ProxyAuthScheme, string>> = { none: '127.0.0.2', basic: '127.0.0.3', digest: '127.0.0.4' };

/**
 * Starts squid (Debian `squid`) from `squid.conf.in` in a fresh folder on a free 127.0.0.1
 * port, in the foreground (`-N`), under a service name of its own (`-n`: two squids at once
 * would share their shared-memory names otherwise). `auth` chooses the flavour: an open proxy,
 * Basic proxy auth (`basic_ncsa_auth` on an `htpasswd -cbm` file) or Digest (`digest_file_auth`,
 * MD5, qop=auth). User `alice`, password `wonderland`. CONNECT reaches any loopback port.
 * Each flavour connects to servers from its own loopback address (`outgoingAddress`).
 */
export async function startSquid(auth: ProxyAuthScheme = 'none'): Promise<ProxyPeer> {
  const helper = auth === 'basic' ? [SQUID_BASIC_HELPER, HTPASSWD] : auth === 'digest' ? [SQUID_DIGEST_HELPER] : [];
  for (const file of [SQUID, ...helper]) {
    await access(file, constants.X_OK).catch(() => {
      throw new Error(`${file} is missing: apt-get install -y --no-install-recommends squid tinyproxy apache2-utils`);
    });
  }
  const root = await makeSite(`squid-${auth}`);
  try {
    const authLines = await writeAuth(root, auth);
    const configFile = join(root, 'squid.conf');
    const errorLog = join(root, 'logs', 'cache.log');
    const accessLog = join(root, 'logs', 'access.log');
    // squid started as root serves as this user (and starts its helpers as it): it must be able
    // to write logs/ and read the password files, which makeSite's modes allow
    const user = process.getuid?.() === 0 ? 'cache_effective_user proxy' : '# not root: squid stays the user that started it';
    return await onFreePort(freePort, async (port) => {
      await writeFile(configFile, await fillTemplate('squid.conf.in', { ROOT: root, PORT: port, OUTGOING: OUTGOING[auth], USER: user, AUTH: authLines }));
      const daemon = await Daemon.start({
        name: 'squid',
        command: SQUID,
        // alphanumeric only: squid refuses other service names
        args: ['-N', '-n', `hb${randomBytes(4).toString('hex')}`, '-f', configFile],
        readyUrl: `http://127.0.0.1:${port}${PROXY_MARKER}?ready`,
        readyStatus: 400,
        logFiles: [errorLog],
      });
      return proxyPeer(
        daemon,
        {
          name: 'squid',
          title: TITLES[auth],
          via: 'hb-interop-squid',
          outgoingAddress: OUTGOING[auth],
          auth,
          realm: auth === 'none' ? undefined : SQUID_REALMS[auth],
          port,
          root,
          configFile,
          errorLog,
        },
        // the hb logformat is the Apache one: `%>a "%rm %ru HTTP/%rv" %>Hs %un`
        { path: accessLog, parse: parseLogLine },
      );
    });
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}

/** Writes the password file of the flavour and returns its `auth_param` and `http_access` lines. */
async function writeAuth(root: string, auth: ProxyAuthScheme): Promise<string> {
  if (auth === 'none') return '# open proxy: no proxy auth';
  const realm = SQUID_REALMS[auth];
  let program: string;
  if (auth === 'basic') {
    const file = join(root, 'htpasswd');
    // -m: apr1 MD5, which basic_ncsa_auth reads (its {SHA} support is missing, so not site.ts's htpasswdLine)
    await execFileAsync(HTPASSWD, ['-cbm', file, USER, PASSWORD]);
    await chmod(file, 0o644);
    program = `${SQUID_BASIC_HELPER} ${file}`;
  } else {
    program = `${SQUID_DIGEST_HELPER} ${await writeSiteFile(root, 'digest-passwords', `${USER}:${PASSWORD}\n`)}`;
  }
  return [
    `auth_param ${auth} program ${program}`,
    `auth_param ${auth} children 2`,
    `auth_param ${auth} realm ${realm}`,
    'acl authed proxy_auth REQUIRED',
    // a deny whose last ACL is proxy_auth answers 407 with the challenge
    'http_access deny !authed',
  ].join('\n');
}
