import { Global, Module } from '@nestjs/common';
import { RedisKeys, WindowCounter } from './redis-keys';
import { RouteRegistry } from './route-registry';

/** Small HTTP-wide helpers every capability module may use. */
@Global()
@Module({
  providers: [RedisKeys, WindowCounter, RouteRegistry],
  exports: [RedisKeys, WindowCounter, RouteRegistry],
})
export class CommonModule {}
