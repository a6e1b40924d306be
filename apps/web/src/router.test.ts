import { describe, expect, it } from 'vitest';
import { matchRoute } from './navigation/match';
import { routes } from './router';

const leaf = (path: string) => matchRoute(routes, path)?.route.id;

describe('routes of docs/flow.md §2', () => {
  it('literal routes win over /{apikey}', () => {
    for (const id of [
      'terminos',
      'pasos_configuracion',
      'preparacion_identificacion',
      'holograma',
      'identificacion',
      'resultados_identificacion',
      'video_token',
      'pdf_video_token',
      'consulta_historial',
      'error_pantalla',
      'validacion_documento',
      'autorizacion_solicitud',
      'autorizacion_documento',
      'preparacion_comprobante',
      'comprobante',
      'finalizado',
      'pdf_token_instructions',
      'pdf_token_error',
      'pdf_token_result',
      'clausula',
      'pdf_token',
      'validar_movil',
      'validar_sms',
      'pivote',
      'repetir',
    ]) {
      expect(leaf(`/${id}`), id).toBe(id);
    }
  });

  it('aliases and the address form reach their step', () => {
    expect(leaf('/identificacion_resultados')).toBe('resultados_identificacion');
    expect(leaf('/pdf_token_intructions')).toBe('pdf_token_instructions');
    expect(leaf('/identificacion_edit')).toBe('datos_direccion_ocr_page');
  });

  it('any other single segment is the grantor api key', () => {
    expect(leaf('/3f9a1c2b7d')).toBe('inicio');
    expect(matchRoute(routes, '/3f9a1c2b7d')?.params).toEqual({ apikey: '3f9a1c2b7d' });
    expect(matchRoute(routes, '/demo%20key')?.params).toEqual({ apikey: 'demo key' });
    expect(leaf('/ayuda')).toBe('inicio');
  });

  it('static segments ignore case and a trailing slash', () => {
    expect(leaf('/Terminos')).toBe('terminos');
    expect(leaf('/terminos/')).toBe('terminos');
  });

  it('/ayuda/{ruta} and /cancelar_flujo/{ruta} carry the route parameter', () => {
    expect(matchRoute(routes, '/ayuda/terminos')?.params).toMatchObject({ ruta: 'terminos' });
    expect(leaf('/cancelar_flujo/video_token')).toBe('cancelar_flujo');
  });

  it('"/" and deeper unknown paths have no api key', () => {
    expect(leaf('/')).toBe('sin_apikey');
    expect(leaf('/a/b/c')).toBe('no_encontrada');
  });
});
