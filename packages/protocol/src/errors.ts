/** The error body every Algolia endpoint answers with, and which the official clients parse. */
export interface ErrorBody {
  message: string;
  status: number;
}
