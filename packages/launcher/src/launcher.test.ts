import { describe, expect, it } from 'vitest';
import { launcherTexts } from '@kyc/contracts/texts';
import { flowUrl, textForStatus } from './credentials';
import { baseUrlOf, setLoadedFrom } from './index';
import { fromFlow, isFlowMessage, routeOf } from './messages';

describe('message mapping (docs/flow.md §2 Embeddable launcher)', () => {
  it('a completed message finishes, whatever its result', () => {
    expect(routeOf({ step: 'completed', result: 'OK', uuid: 'u', transaccion: 't' })).toBe('finish');
    // docs/flow.md §4 SMS success: completed with result FAIL is still the end of the journey
    expect(routeOf({ step: 'completed', result: 'FAIL', type: 'PROCESS', error_text: 'El proceso no se concluyó correctamente' })).toBe('finish');
  });
  it('result OK is a status', () => {
    expect(routeOf({ step: 'inicio_page', result: 'OK' })).toBe('status');
    expect(routeOf({ step: 'terminos', result: 'OK' })).toBe('status');
  });
  it('anything else is an error', () => {
    expect(routeOf({ step: 'preparacion_identificacion', result: 'INCOMPLETED', type: 'PROCESS', error_text: 'Cancelado' })).toBe('errors');
    expect(routeOf({ step: 'identificacion', result: 'FAIL' })).toBe('errors');
    expect(routeOf({ step: 'x', result: 'ok' })).toBe('errors');
  });
  it('recognises flow messages only', () => {
    expect(isFlowMessage({ step: 'inicio', result: 'OK' })).toBe(true);
    expect(isFlowMessage({ step: 'inicio' })).toBe(false);
    expect(isFlowMessage('completed')).toBe(false);
    expect(isFlowMessage(null)).toBe(false);
  });
  it('accepts a message only from the flow origin and the popup window', () => {
    const popup = {};
    expect(fromFlow({ origin: 'http://127.0.0.1:8080', source: popup }, 'http://127.0.0.1:8080', popup)).toBe(true);
    expect(fromFlow({ origin: 'http://evil.example', source: popup }, 'http://127.0.0.1:8080', popup)).toBe(false);
    expect(fromFlow({ origin: 'http://127.0.0.1:8080', source: {} }, 'http://127.0.0.1:8080', popup)).toBe(false);
    expect(fromFlow({ origin: 'http://127.0.0.1:8080', source: null }, 'http://127.0.0.1:8080', null)).toBe(false);
  });
});

describe('launcher errors (docs/flow.md §8)', () => {
  it('maps statuses to the Spanish texts', () => {
    expect(textForStatus(401)).toBe(launcherTexts.invalidKeys);
    expect(textForStatus(403)).toBe(launcherTexts.invalidKeys);
    expect(textForStatus(404)).toBe(launcherTexts.outdated);
    expect(textForStatus(500)).toBe(launcherTexts.serviceDown);
    expect(textForStatus(503)).toBe(launcherTexts.serviceDown);
    expect(textForStatus(400)).toBe(launcherTexts.authenticity);
    expect(textForStatus(null)).toBe(launcherTexts.noConnection);
  });
});

describe('flow URL and modes', () => {
  it('opens /{key} with referer, jwt and schema', () => {
    const url = new URL(flowUrl('http://127.0.0.1:8080', 'demo key', 'http://localhost:9000/tienda', 'a.b.c', 'app://volver'));
    expect(url.pathname).toBe('/demo%20key');
    expect(url.searchParams.get('referer')).toBe('http://localhost:9000/tienda');
    expect(url.searchParams.get('jwt')).toBe('a.b.c');
    expect(url.searchParams.get('schema')).toBe('app://volver');
    expect(new URL(flowUrl('http://h', 'k', 'http://r', 'a.b.c')).searchParams.has('schema')).toBe(false);
  });
  it('dev and prod base URLs', () => {
    setLoadedFrom(null);
    expect(baseUrlOf({ mode: 'dev' }, 'http://partner.example')).toBe('http://localhost:8080');
    expect(baseUrlOf({ mode: 'dev', urls: { dev: 'http://127.0.0.1:9/' } }, 'http://partner.example')).toBe('http://127.0.0.1:9');
    expect(baseUrlOf({}, 'http://partner.example')).toBe('http://partner.example');
    setLoadedFrom('https://kyc.lender.example');
    expect(baseUrlOf({ mode: 'prod' }, 'http://partner.example')).toBe('https://kyc.lender.example');
    expect(baseUrlOf({ mode: 'prod', urls: { prod: 'https://other.example' } }, 'http://partner.example')).toBe('https://other.example');
    setLoadedFrom(null);
  });
});
