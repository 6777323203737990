// How hb -J reads the file name a Content-Disposition header offers (RFC 6266), and makes it safe.
import { describe, expect, it } from '@jest/globals';
import { safeDispositionName } from '../../lib/cli/disposition-name.js';

/** A header value as a server's raw UTF-8 bytes arrive: one Latin-1 character per byte. */
const asWireBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('safeDispositionName', () => {
  it('reads filename= quoted or up to ;, and nothing without it', () => {
    expect(safeDispositionName('attachment; filename="report 1.csv"')).toBe('report 1.csv');
    expect(safeDispositionName('attachment; filename=report.csv; size=3')).toBe('report.csv');
    expect(safeDispositionName('attachment')).toBeUndefined();
    expect(safeDispositionName(null)).toBeUndefined();
  });

  it('prefers filename*= (RFC 8187) in UTF-8 or ISO-8859-1, as browsers do', () => {
    expect(safeDispositionName(`attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe('résumé.pdf');
    expect(safeDispositionName(`attachment; filename*=utf-8'en'%E2%82%AC%20rates.txt; filename="EUR rates.txt"`)).toBe('€ rates.txt');
    expect(safeDispositionName(`attachment; filename*=ISO-8859-1''caf%E9.txt`)).toBe('café.txt');
  });

  it('falls back to filename= when filename*= is malformed or in another charset', () => {
    expect(safeDispositionName(`attachment; filename="plain.txt"; filename*=UTF-8''bad%E9.txt`)).toBe('plain.txt');
    expect(safeDispositionName(`attachment; filename="plain.txt"; filename*=SHIFT_JIS''%82%A0.txt`)).toBe('plain.txt');
  });

  it('reads a filename= sent as raw UTF-8 bytes as UTF-8, and keeps Latin-1 that is not UTF-8', () => {
    expect(safeDispositionName(asWireBytes('attachment; filename="Übersicht 2026.pdf"'))).toBe('Übersicht 2026.pdf');
    expect(safeDispositionName('attachment; filename="caf\u00e9.txt"')).toBe('café.txt');
  });

  it('applies the same safety to a filename*= name: no path, no dot file, no control characters', () => {
    expect(safeDispositionName(`attachment; filename*=UTF-8''..%2F..%2F.bashrc`)).toBe('bashrc');
    expect(safeDispositionName(`attachment; filename*=UTF-8''a%0Ab%1B.txt`)).toBe('ab.txt');
    expect(safeDispositionName(`attachment; filename*=UTF-8''%2E%2E`)).toBeUndefined();
  });

  it('puts _ before a Windows device name, whatever its case or extension', () => {
    expect(safeDispositionName('attachment; filename="NUL"')).toBe('_NUL');
    expect(safeDispositionName('attachment; filename="con.txt"')).toBe('_con.txt');
    expect(safeDispositionName('attachment; filename="Com1.log"')).toBe('_Com1.log');
    expect(safeDispositionName('attachment; filename="console.txt"')).toBe('console.txt');
  });

  it('also puts _ before CONIN$, CONOUT$, superscript COM/LPT numbers and a device name followed by spaces', () => {
    expect(safeDispositionName(`attachment; filename*=UTF-8''CONIN$`)).toBe('_CONIN$');
    expect(safeDispositionName(`attachment; filename*=UTF-8''COM%C2%B9.txt`)).toBe('_COM¹.txt');
    expect(safeDispositionName(`attachment; filename*=UTF-8''con%20.txt`)).toBe('_con .txt');
  });

  it('removes invisible formatting characters: no right-to-left override, no zero-width dot file', () => {
    expect(safeDispositionName(`attachment; filename*=UTF-8''%E2%80%AEtxt.exe`)).toBe('txt.exe');
    expect(safeDispositionName(`attachment; filename*=UTF-8''%E2%80%8B.bashrc`)).toBe('bashrc');
  });

  it("reads parameters outside quotes only: a filename*= inside another parameter's quoted value is no name", () => {
    expect(safeDispositionName(`attachment; filename="a;filename*=UTF-8''.evil"`)).toBe("a;filename*=UTF-8''.evil");
    expect(safeDispositionName(`inline; foo="a;filename*=UTF-8''.bashrc"`)).toBeUndefined();
    expect(safeDispositionName('attachment; filename=plain"quote.txt')).toBe('plain');
  });

  it('uses filename= when filename*= leaves nothing safe', () => {
    expect(safeDispositionName(`attachment; filename="x.txt"; filename*=UTF-8''..`)).toBe('x.txt');
  });

  it('cuts a name to 255 UTF-8 bytes, keeping its extension', () => {
    const name = safeDispositionName(`attachment; filename*=UTF-8''${'%C3%A9'.repeat(300)}.pdf`)!;
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^é+\.pdf$/);
    expect(name.length).toBe(125 + 4);
  });
});
