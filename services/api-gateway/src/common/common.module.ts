import { Global, Module } from '@nestjs/common';
import { CsvExporter } from './csv-export';
import { RedisKeys, WindowCounter } from './redis-keys';
import { RouteRegistry } from './route-registry';

/** Small HTTP-wide helpers every capability module may use. */
@Global()
@Module({
  providers: [RedisKeys, WindowCounter, RouteRegistry, CsvExporter],
  exports: [RedisKeys, WindowCounter, RouteRegistry, CsvExporter],
})
export class CommonModule {}
