import * as TabsPrimitive from '@radix-ui/react-tabs';
import { withClasses } from '../lib/with-classes';

export const Tabs = TabsPrimitive.Root;

export const TabsList = withClasses(
  TabsPrimitive.List,
  'inline-flex h-10 items-center justify-center rounded-md bg-muted p-1 text-muted-foreground',
);

export const TabsTrigger = withClasses(
  TabsPrimitive.Trigger,
  'inline-flex cursor-pointer items-center justify-center rounded-sm px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-all focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
);

export const TabsContent = withClasses(
  TabsPrimitive.Content,
  'mt-2 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
);
