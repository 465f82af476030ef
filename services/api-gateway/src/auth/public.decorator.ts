import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'sprout:public-route';

/** Marks a handler or controller as reachable without an admin session (the allow-list). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
