import { useCodecLoaders } from './codec-loaders.js';

// Node's XML and CSV codecs: npm packages imported on first use only (registering costs no load).
// Registered on import, by the node platform; a browser bundle never imports this module.
useCodecLoaders({
  xml: () => import('xml2js'),
  csvStringify: () => import('csv-stringify/sync'),
  csvParse: () => import('csv-parse/sync'),
});
