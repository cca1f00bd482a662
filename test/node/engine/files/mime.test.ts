/**
 * ATT-1: the mime type a file gets from its name when it is written without one: the `mime` package's
 * table, the project's overrides for source files read as text, and `application/octet-stream` when
 * the name says nothing.
 */
import { describe, expect, it } from 'vitest';
import { mimeTypeFor } from '../../../../src/engine/files/mime.js';

describe('mimeTypeFor', () => {
  it('ATT-1: knows office, image and data formats beyond a short list', () => {
    expect(mimeTypeFor('/reports/q3.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(mimeTypeFor('sheet.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(mimeTypeFor('/photos/IMG_0001.heic')).toBe('image/heic');
    expect(mimeTypeFor('/data/events.parquet')).toBe('application/vnd.apache.parquet');
    expect(mimeTypeFor('notes.md')).toBe('text/markdown');
    expect(mimeTypeFor('a.png')).toBe('image/png');
    expect(mimeTypeFor('a.pdf')).toBe('application/pdf');
  });

  it('ATT-1: source files the tools read as text keep a text type where mime-db guesses otherwise', () => {
    // mime-db: video/mp2t (MPEG transport stream) and application/rls-services+xml.
    expect(mimeTypeFor('/src/index.ts')).toBe('text/typescript');
    expect(mimeTypeFor('module.mts')).toBe('text/typescript');
    expect(mimeTypeFor('module.cts')).toBe('text/typescript');
    expect(mimeTypeFor('main.rs')).toBe('text/rust');
    // mime-db: text/yaml; the registered type is application/yaml (RFC 9512).
    expect(mimeTypeFor('config.yaml')).toBe('application/yaml');
    expect(mimeTypeFor('config.yml')).toBe('application/yaml');
    expect(mimeTypeFor('app.js')).toBe('text/javascript');
  });

  it('ATT-1: extensions match whatever their case', () => {
    expect(mimeTypeFor('/DCIM/PHOTO.JPG')).toBe('image/jpeg');
    expect(mimeTypeFor('README.MD')).toBe('text/markdown');
    expect(mimeTypeFor('Index.TS')).toBe('text/typescript');
    expect(mimeTypeFor('Report.Docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('ATT-1: a name without a known extension is application/octet-stream', () => {
    expect(mimeTypeFor('/Makefile')).toBe('application/octet-stream');
    expect(mimeTypeFor('README')).toBe('application/octet-stream');
    // A bare name that happens to be an extension is still a name without one.
    expect(mimeTypeFor('png')).toBe('application/octet-stream');
    expect(mimeTypeFor('/release.v2/LICENSE')).toBe('application/octet-stream');
    expect(mimeTypeFor('archive.')).toBe('application/octet-stream');
    expect(mimeTypeFor('data.unknownext')).toBe('application/octet-stream');
    expect(mimeTypeFor('odd.constructor')).toBe('application/octet-stream');
  });
});
