import { describe, expect, it } from 'vitest';
import { decodeResponseText, encodingFromContentType } from '../../../src/agentic/web/decode-response-text.js';
import { PyException } from '../../../src/py/value.js';

const latin1Cafe = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
const utf8Cafe = Buffer.from('café', 'utf8');

describe('encodingFromContentType (requests get_encoding_from_headers)', () => {
  it.each<[string | undefined, string | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['text/html', 'ISO-8859-1'],
    ['text/html; charset=UTF-8', 'UTF-8'],
    ['text/html; Charset="utf-8"', 'utf-8'],
    ["text/html; charset='koi8-r'", 'koi8-r'],
    ['application/json', 'utf-8'],
    ['application/xhtml+xml', undefined],
    ['Text/HTML', undefined],
    ['image/png', undefined],
  ])('%s → %s', (header, label) => {
    expect(encodingFromContentType(header)).toBe(label);
  });

  it('raises like requests for a bare charset parameter', () => {
    expect(() => encodingFromContentType('text/html; charset')).toThrow(PyException);
    expect(() => encodingFromContentType('text/html; charset')).toThrow("'bool' object has no attribute 'strip'");
  });
});

describe('decodeResponseText (requests Response.text)', () => {
  it.each<[string, Uint8Array, string | undefined, string]>([
    ['Latin-1 for text/* without charset (not windows-1252)', Buffer.from([0x80, 0xe9]), 'text/html', '\u0080é'],
    ['a UTF-8 page served as bare text/html becomes mojibake', utf8Cafe, 'text/html', 'cafÃ©'],
    ['the header charset', utf8Cafe, 'text/html; charset=utf-8', 'café'],
    ['a Python codec spelling', utf8Cafe, 'text/html; charset=utf_8', 'café'],
    ['iso-8859-1 named explicitly is true Latin-1', Buffer.from([0x80]), 'text/html; charset=iso-8859-1', '\u0080'],
    ['windows-1252 when named (Python cp1252, undefined bytes replaced)', Buffer.from([0x80, 0x81, 0x9f, 0xe9]), 'text/html; charset=windows-1252', '€\ufffdŸé'],
    ['another single-byte codec', Buffer.from([0x80, 0xe9]), 'text/html; charset=windows-1251', 'Ђй'],
    ['ascii replaces high bytes', latin1Cafe, 'text/plain; charset=ascii', 'caf\ufffd'],
    ['an unknown charset falls back to UTF-8', utf8Cafe, 'text/html; charset=no-such-codec', 'café'],
    ['JSON is UTF-8', utf8Cafe, 'application/json', 'café'],
    ['no Content-Type: UTF-8 (the reference guesses with charset_normalizer)', utf8Cafe, undefined, 'café'],
    ['invalid UTF-8 is replaced', Buffer.from([0x61, 0xff, 0x62]), 'text/html; charset=utf-8', 'a\ufffdb'],
    ['a byte-order mark is kept', Buffer.from([0xef, 0xbb, 0xbf, 0x61]), 'text/html; charset=utf-8', '\ufeffa'],
    ['an empty body', Buffer.alloc(0), 'text/html', ''],
  ])('%s', (_name, body, contentType, text) => {
    expect(decodeResponseText(body, contentType)).toBe(text);
  });

  it('drops a multi-byte character cut by the size cap', () => {
    const cut = utf8Cafe.subarray(0, 4);
    expect(decodeResponseText(cut, 'text/html; charset=utf-8', true)).toBe('caf');
    expect(decodeResponseText(cut, 'text/html; charset=utf-8', false)).toBe('caf\ufffd');
  });
});
