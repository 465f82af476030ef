import 'reflect-metadata';
import { bootstrapService, loadConfigOrExit } from '@sprout/platform';
import { AppModule } from './app.module';
import { SERVICE_NAME, aiResponderConfig } from './config';

const config = loadConfigOrExit(aiResponderConfig);
void bootstrapService({ module: AppModule.forRoot(config), name: SERVICE_NAME, config });
