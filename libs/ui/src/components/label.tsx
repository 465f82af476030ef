import * as LabelPrimitive from '@radix-ui/react-label';
import { withClasses } from '../lib/with-classes';

export const Label = withClasses(
  LabelPrimitive.Root,
  'text-sm leading-none font-medium peer-disabled:cursor-not-allowed peer-disabled:opacity-70',
);
