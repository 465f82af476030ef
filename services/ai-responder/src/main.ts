import 'reflect-metadata';
import { aiResponder } from './app';

aiResponder.main();
