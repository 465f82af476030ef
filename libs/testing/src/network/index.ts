export * from './tcp-relay';
