/** URL_CHAT with {folio} replaced; null when empty or not an http(s) URL (it is rendered as a link). */
export function chatLink(template: string, folio: string): string | null {
  const filled = template.trim().replaceAll('{folio}', encodeURIComponent(folio));
  if (!filled) return null;
  try {
    const url = new URL(filled);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** tel: URI of a displayed phone number (digits and a leading +). */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}
