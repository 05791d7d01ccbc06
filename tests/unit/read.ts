/** An author's message as the rules read it in a turn: segmented by jieba (the product's segmenter). */
import { readAuthorMessage } from '../../src/activities/reading/segmenter';

export const read = readAuthorMessage;
