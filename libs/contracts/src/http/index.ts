export * from './endpoint';
export * from './params';
