import type { z } from 'zod';
import type { leadSchema } from '../../../src/leads/leads.schemas';
import { apiList } from './client';

export type Lead = z.output<typeof leadSchema>;

/** The filters of the list and of the CSV export, as query parameters (empty ones left out). */
export interface LeadFilters {
  demo_id?: string;
  start_date?: string;
  end_date?: string;
}

const defined = (filters: LeadFilters) =>
  Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));

export const leadsApi = {
  list: (filters: LeadFilters, page: number, perPage: number) =>
    apiList<Lead>('/leads', { query: { ...defined(filters), page, per_page: perPage } }),
  /** A plain link: the browser downloads it with the session cookie (a GET needs no CSRF header). */
  csvUrl: (filters: LeadFilters) => {
    const query = new URLSearchParams(defined(filters)).toString();
    return `/v1/leads.csv${query ? `?${query}` : ''}`;
  },
};
