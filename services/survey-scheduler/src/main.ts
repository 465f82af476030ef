import 'reflect-metadata';
import { surveyScheduler } from './app';

surveyScheduler.main();
