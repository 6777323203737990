import { readdir, readFile } from 'node:fs/promises';

/** Processes whose command line mentions `text` (a peer's folder is in its own and its helpers' command lines), as `pid: command line`. */
export async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`);
  }
  return found;
}
