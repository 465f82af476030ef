import type { ComponentProps, ComponentType, ElementType } from 'react';
import { cn } from './cn';

/** `Component` with Sprout's classes first; the caller's className is merged after them. */
export function withClasses<C extends ElementType>(Component: C, classes: string) {
  // Every element and primitive passed here takes a className; the props go through unchanged.
  const Inner = Component as ComponentType<{ className?: string }>;
  return function Styled({
    className,
    ...props
  }: Omit<ComponentProps<C>, 'className'> & { className?: string }) {
    return <Inner className={cn(classes, className)} {...props} />;
  };
}
