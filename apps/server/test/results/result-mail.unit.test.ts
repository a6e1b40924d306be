import { describe, expect, it } from 'vitest';
import { mailHtml, mailText, resultMailText, type EmailJobPayload } from '../../src/features/results/email-job.js';

const payload = (overrides: Partial<EmailJobPayload> = {}): EmailJobPayload => ({
  uuidTrx: '8057f69f-ef47-4713-8cbe-a3e2877be918',
  uuidUser: '5ce065ca-2351-45d1-bb21-69d2d3398db8',
  grantorId: 'g',
  grantorName: 'Financiera Demo',
  email: 'cliente@correo.example',
  name: 'José <Luis>',
  flag: 'GREEN',
  tipo_envio: 'COMPLETO',
  semaforo: 'green',
  customId: 'x',
  clientCustomId: 'x',
  pdfTokenUrl: `http://localhost:8080/pdf_token?uuid=${'a'.repeat(560)}&x=1`,
  fecha: Date.parse('2026-11-27T18:00:00Z'),
  ...overrides,
});

describe('the result e-mail', () => {
  it('links the result page with an anchor in HTML and writes the address whole in the plain text', () => {
    const { blocks } = resultMailText(payload());
    const html = mailHtml(blocks);
    expect(html).toContain(`<a href="http://localhost:8080/pdf_token?uuid=${'a'.repeat(560)}&amp;x=1">Consultar mi documento</a>`);
    expect(html).not.toMatch(/<p>[^<]*pdf_token/);
    // The request's free text never reaches the message (issue #15).
    expect(html).toContain('<p>Hola:</p>');
    expect(html).not.toContain('José');
    const text = mailText(blocks);
    expect(text.split('\n\n')).toContain(payload().pdfTokenUrl);
  });

  it('has no link when the result is not shown (RED)', () => {
    const { blocks } = resultMailText(payload({ flag: 'RED' }));
    expect(mailHtml(blocks)).not.toContain('<a ');
    expect(mailText(blocks)).not.toContain('pdf_token');
  });
});
