/**
 * Mailbox providers anyone can sign up with: an address there says who a person is, not which company they
 * work for, so analytics and notifications group these viewers as individuals rather than as a company.
 */
const FREE_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.co.jp',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'fastmail.com',
  'hey.com',
  'tutanota.com',
  'tuta.io',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  't-online.de',
  'seznam.cz',
  'naver.com',
]);

/**
 * The domain of an address, lower-cased; '' for something that is not an address.
 *
 * @example
 * ```ts
 * import { emailDomain } from './free-mail';
 *
 * emailDomain('Ada@Example.COM'); // 'example.com'
 * ```
 */
export const emailDomain = (email: string) => {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
};

/**
 * Whether a domain is a free webmail provider (a person, not a company, for lead scoring).
 *
 * @example
 * ```ts
 * import { emailDomain, isFreeMailDomain } from './free-mail';
 *
 * isFreeMailDomain(emailDomain('ada@gmail.com')); // true
 * ```
 */
export const isFreeMailDomain = (domain: string) => FREE_MAIL.has(domain.toLowerCase());
