import { describe, expect, it } from 'vitest';
import { chatLink, telHref } from './help';

describe('help overlay', () => {
  it('"a chat link that includes the short process folio"', () => {
    expect(chatLink('https://chat.example/start?ref={folio}', '5f2e9c10')).toBe('https://chat.example/start?ref=5f2e9c10');
  });

  it('hides the chat link when URL_CHAT is empty or not an http(s) URL', () => {
    expect(chatLink('', 'x')).toBeNull();
    expect(chatLink('   ', 'x')).toBeNull();
    expect(chatLink('javascript:alert({folio})', 'x')).toBeNull();
  });

  it('dials the digits of the contact phone', () => {
    expect(telHref('+52 (55) 1234-5678')).toBe('tel:+525512345678');
    expect(telHref('800 123 4567')).toBe('tel:8001234567');
  });
});
