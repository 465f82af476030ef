export { Toaster as default } from '@sprout/ui';
