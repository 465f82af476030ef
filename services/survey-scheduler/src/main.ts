import 'reflect-metadata';
import { bootstrapService } from '@sprout/platform';
import { AppModule } from './app.module';
import { SERVICE_NAME, loadSurveySchedulerConfig } from './config';

const config = loadSurveySchedulerConfig();
void bootstrapService({ module: AppModule.forRoot(config), name: SERVICE_NAME, config });
