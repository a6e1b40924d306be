import type { AddressField } from '../../steps/identificacion_edit/address-model';

/** Texts of the address form (step datos_direccion_ocr_page, served at /identificacion_edit). `spec` marks the spec's own words. */
export const texts = {
  title: 'Verifica y completa tu dirección actual', // spec
  introProof: 'Leímos estos datos de tu comprobante de domicilio. Revísalos y completa lo que falte.',
  introId: 'Leímos estos datos de tu identificación. Revísalos y corrígelos si tu dirección actual es otra.',
  introEmpty: 'Escribe tu dirección actual.',
  labels: {
    codigoPostal: 'Código postal',
    pais: 'País',
    estado: 'Estado',
    delegacion: 'Municipio o alcaldía',
    colonia: 'Colonia',
    otraColonia: 'Otra colonia',
    calle: 'Calle',
    numeroExterior: 'Número exterior',
    numeroInterior: 'Número interior (opcional)',
  } satisfies Record<AddressField, string>,
  choose: 'Elige tu colonia',
  searching: 'Buscando las colonias de tu código postal…',
  found: (n: number) => (n === 1 ? 'Encontramos tu colonia.' : `Encontramos ${n} colonias: elige la tuya.`),
  notFound: 'No encontramos ese código postal. Revísalo o escribe tu estado, municipio o alcaldía y colonia.',
  lookupFailed: 'No pudimos buscar tu código postal. Escribe tu estado, municipio o alcaldía y colonia.',
  save: 'GUARDAR', // spec
  saving: 'Guardando tu dirección…',
} as const;
