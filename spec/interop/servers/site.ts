import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one user every interop server knows. */
export const USER = 'alice';
export const PASSWORD = 'wonderland';

export type DigestAlgorithm = 'MD5' | 'SHA-256';

/** This folder (templates and the CGI script live next to the harness). */
const HERE = fileURLToPath(new URL('.', import.meta.url));

/**
 * A fresh folder for one server: `logs/` (world-writable: lighttpd opens its logs after
 * dropping to www-data), `run/`, `htdocs/` with the static `marker.txt`. Every folder is 0755,
 * not mktemp's 0700, because a server started as root serves as www-data.
 */
export async function makeSite(name: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `hb-interop-${name}-`));
  await chmod(root, 0o755);
  for (const dir of ['run', 'htdocs']) await mkdir(join(root, dir), { mode: 0o755 });
  await mkdir(join(root, 'logs'));
  await chmod(join(root, 'logs'), 0o777);
  await writeSiteFile(root, 'htdocs/marker.txt', 'marker\n');
  return root;
}

/** Removes a site folder, unless `HB_INTEROP_KEEP=1` asks to keep it for a look at the logs. */
export async function removeSite(root: string): Promise<void> {
  if (process.env.HB_INTEROP_KEEP === '1') return;
  await rm(root, { recursive: true, force: true });
}

/** Writes a file readable by everyone (mode 0644) under `root`. */
export async function writeSiteFile(root: string, path: string, content: string): Promise<string> {
  const file = join(root, path);
  await writeFile(file, content);
  await chmod(file, 0o644);
  return file;
}

/** Fills `@NAME@` placeholders of a template of this folder; an unknown placeholder throws. */
export async function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): Promise<string> {
  const text = await readFile(join(HERE, template), 'utf8');
  return text.replace(/@([A-Z]+)@/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${template}: no value for @${name}@`);
    return String(value);
  });
}

/** Copies the echo CGI script to `root/dir/echo`, executable by everyone. */
export async function installEchoCgi(root: string, dir: string): Promise<void> {
  await mkdir(join(root, dir), { recursive: true, mode: 0o755 });
  const target = join(root, dir, 'echo');
  await copyFile(join(HERE, 'echo.cgi'), target);
  await chmod(target, 0o755);
}

/** A line of an htdigest file: `user:realm:hex(H(user:realm:password))` with H = MD5 or SHA-256. */
export function htdigestLine(user: string, realm: string, password: string, algorithm: DigestAlgorithm): string {
  const hash = createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(`${user}:${realm}:${password}`, 'utf8')
    .digest('hex');
  return `${user}:${realm}:${hash}\n`;
}

/** A line of an Apache htpasswd file in the `{SHA}` format (base64 of SHA-1), which mod_authn_file accepts. */
export function htpasswdLine(user: string, password: string): string {
  return `${user}:{SHA}${createHash('sha1').update(password, 'utf8').digest('base64')}\n`;
}
