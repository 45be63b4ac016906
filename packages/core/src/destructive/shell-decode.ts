/** What decoders in a pipeline write, so an encoded payload (`echo … | base64 -d | sh`) is read as it runs. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Strict UTF-8: null on a malformed sequence, so binary output is never taken for text. */
function bytesToText(bytes: readonly number[]): string | null {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const first = bytes[i] as number;
    const extra =
      first < 0x80 ? 0 : first >= 0xf0 && first < 0xf8 ? 3 : first >= 0xe0 ? 2 : first >= 0xc2 ? 1 : -1;
    if (extra < 0 || first >= 0xf8) return null;
    let code = extra === 0 ? first : first & (0x3f >> extra);
    for (let j = 1; j <= extra; j++) {
      const next = bytes[i + j];
      if (next === undefined || (next & 0xc0) !== 0x80) return null;
      code = (code << 6) | (next & 0x3f);
    }
    text += String.fromCodePoint(code);
    i += extra + 1;
  }
  return text;
}

/** Decodes base64 (standard or URL alphabet); null when the text is not base64 of UTF-8 text. */
export function decodeBase64(text: string): string | null {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (compact === '' || compact.length % 4 === 1 || !/^[A-Za-z0-9+/]*$/.test(compact)) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of compact) {
    buffer = (buffer << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytesToText(bytes);
}

function decodeHex(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return null;
  const bytes = Array.from({ length: compact.length / 2 }, (_, i) =>
    Number.parseInt(compact.slice(i * 2, i * 2 + 2), 16),
  );
  return bytesToText(bytes);
}

function decodes(args: readonly string[]): boolean {
  return args.some((arg) => arg === '-d' || arg === '-D' || arg === '--decode');
}

/**
 * The text a decoding program writes for the text it reads; null when the program is not a
 * decoder, reads a file, or the input does not decode (the reader then cannot tell what follows).
 */
export function decodedOutput(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
): string | null {
  const input = stdin.join('\n');
  const operands = args.filter((arg) => !arg.startsWith('-'));
  switch (name) {
    case 'base64':
      return decodes(args) && operands.length === 0 ? decodeBase64(input) : null;
    case 'openssl':
      return (operands[0] === 'base64' || args.includes('-base64') || args.includes('-a')) && decodes(args)
        ? decodeBase64(input)
        : null;
    case 'xxd':
      return args.includes('-r') && args.includes('-p') ? decodeHex(input) : null;
    case 'rev':
      return operands.length === 0
        ? input
            .split('\n')
            .map((line) => [...line].reverse().join(''))
            .join('\n')
        : null;
    default:
      return null;
  }
}
