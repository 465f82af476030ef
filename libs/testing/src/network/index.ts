export * from './tcp-relay';
export * from './answers';
