import { describe, expect, it } from 'vitest';
import { fieldName, humanDetail, humanMessage } from '../web/src/api/human-errors';
import { withScheme } from '../web/src/api/limits';

// The web app's words for the API's refusals: what a person reads, while the API keeps its precise messages.
describe('the web app’s error messages', () => {
  it('says field problems as sentences, with the limit stated', () => {
    expect(humanDetail('Too big: expected string to have <=200 characters')).toBe('Can be up to 200 characters.');
    expect(humanDetail('Too small: expected string to have >=1 characters')).toBe('Cannot be empty.');
    expect(humanDetail('Too small: expected string to have >=8 characters')).toBe('Needs at least 8 characters.');
    expect(humanDetail('Too big: expected array to have <=500 items')).toBe('Can have up to 500 entries.');
    expect(humanDetail('Invalid URL')).toBe('Enter a full web address, such as https://example.com.');
    expect(humanDetail('Required when generate_with_ai is true')).toBe('This is required.');
    expect(humanDetail('Invalid input: expected string, received undefined')).toBe('This is required.');
    expect(humanDetail('Invalid option: expected one of "admin"|"editor"|"viewer"')).toBe('Choose one of admin, editor, viewer.');
    // The server's own sentences get a capital and one full stop, never two.
    expect(humanDetail('must be at least 10 characters')).toBe('Must be at least 10 characters.');
    expect(humanDetail('This link has expired.')).toBe('This link has expired.');
  });

  it('names fields as the forms do', () => {
    expect(fieldName('source_url')).toBe('Page address');
    expect(fieldName('steps.2.title')).toBe('Title');
    expect(fieldName('allowed_domains.0')).toBe('Allowed domains');
  });

  it('says a whole refusal in one message, never two run together', () => {
    expect(
      humanMessage(400, 'invalid_request', 'Invalid body: title Too big: expected string to have <=200 characters', [
        { field: 'title', message: 'Too big: expected string to have <=200 characters' },
      ]),
    ).toBe('Title: Can be up to 200 characters.');
    expect(
      humanMessage(415, 'unsupported_media_type', 'Unsupported Content-Type application/pdf: send application/json, image/png, image/jpeg, image/webp', []),
    ).toBe('This kind of file cannot be used here. Use PNG, JPEG or WebP.');
    expect(humanMessage(415, 'unsupported_media_type', 'The body is not a PNG, JPEG or WebP image (checked from its bytes)', [])).toBe(
      'This file is not an image we can use. Use a PNG, JPEG or WebP image.',
    );
    expect(humanMessage(413, 'payload_too_large', 'Request body is too large: the limit is 5 MB', [])).toBe(
      'That is too large: the limit is 5 MB.',
    );
    expect(humanMessage(409, 'conflict', 'A demo that is generating cannot be changed', [])).toBe(
      'A demo that is generating cannot be changed.',
    );
  });

  it('gives an address typed without a scheme https://', () => {
    expect(withScheme('ledgerly.com')).toBe('https://ledgerly.com');
    expect(withScheme('  ledgerly.com/pricing ')).toBe('https://ledgerly.com/pricing');
    expect(withScheme('http://localhost:8080')).toBe('http://localhost:8080');
    expect(withScheme('')).toBe('');
  });
});
