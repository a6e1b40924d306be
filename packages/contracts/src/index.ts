export * from './common.js';
export * from './api.js';
export * from './routes.js';
export * from './params.js';
export * from './texts.js';
export * from './state.js';
export * from './faces.js';
export * from './console.js';
