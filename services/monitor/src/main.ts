import 'reflect-metadata';
import { bootstrapService, loadConfig } from '@sprout/platform';
import { AppModule } from './app.module';
import { SERVICE_NAME, monitorConfig } from './config';

const config = loadConfig(monitorConfig);
void bootstrapService({ module: AppModule.forRoot(config), name: SERVICE_NAME, config });
