import 'reflect-metadata';
import { imageProcessor } from './app';

imageProcessor.main();
