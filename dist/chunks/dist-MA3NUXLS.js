import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);
import {
  combineHeaders,
  convertBase64ToUint8Array,
  convertToBase64,
  createEventSourceResponseHandler,
  createJsonErrorResponseHandler,
  createJsonResponseHandler,
  createProviderToolFactory,
  createProviderToolFactoryWithOutputSchema,
  createToolNameMapping,
  generateId,
  isNonNullable,
  lazySchema,
  loadApiKey,
  loadOptionalSetting,
  parseProviderOptions,
  postJsonToApi,
  resolve,
  safeParseJSON,
  secureJsonParse,
  stringifyWithBigIntAndCycles,
  validateTypes,
  withUserAgentSuffix,
  withoutTrailingSlash,
  zodSchema
} from "./chunk-MRP4HUYO.js";
import {
  APICallError,
  InvalidArgumentError,
  InvalidResponseDataError,
  NoSuchModelError,
  UnsupportedFunctionalityError,
  external_exports
} from "./chunk-OL6R5VLR.js";
import "./chunk-L5MOVZ75.js";

// ../../main/node_modules/@ai-sdk/anthropic/dist/index.mjs
var VERSION = true ? "3.0.140" : "0.0.0-test";
var anthropicErrorDataSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      type: external_exports.literal("error"),
      error: external_exports.object({
        type: external_exports.string(),
        message: external_exports.string()
      })
    })
  )
);
var anthropicFailedResponseHandler = createJsonErrorResponseHandler({
  errorSchema: anthropicErrorDataSchema,
  errorToMessage: (data) => data.error.message
});
var anthropicStopDetailsSchema = () => external_exports.object({
  type: external_exports.string(),
  category: external_exports.string().nullish(),
  explanation: external_exports.string().nullish(),
  recommended_model: external_exports.string().nullish()
});
var anthropicSafeguardResultSchema = () => external_exports.object({
  type: external_exports.string(),
  status: external_exports.object({
    type: external_exports.string(),
    tool_uses: external_exports.record(
      external_exports.string(),
      external_exports.object({
        type: external_exports.string(),
        outcome: external_exports.string().nullish(),
        explanation: external_exports.string().nullish()
      })
    ).nullish()
  })
});
var anthropicToolCallCallerSchema = () => external_exports.union([
  external_exports.object({
    type: external_exports.literal("code_execution_20250825"),
    tool_id: external_exports.string()
  }),
  external_exports.object({
    type: external_exports.literal("code_execution_20260120"),
    tool_id: external_exports.string()
  }),
  external_exports.object({
    type: external_exports.literal("direct")
  })
]);
var anthropicInputTransformationSchema = () => external_exports.object({
  type: external_exports.string(),
  path: external_exports.string(),
  reason: external_exports.string()
});
var anthropicMessagesResponseSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      type: external_exports.literal("message"),
      id: external_exports.string().nullish(),
      model: external_exports.string().nullish(),
      content: external_exports.array(
        external_exports.discriminatedUnion("type", [
          external_exports.object({
            type: external_exports.literal("text"),
            text: external_exports.string(),
            citations: external_exports.array(
              external_exports.discriminatedUnion("type", [
                external_exports.object({
                  type: external_exports.literal("web_search_result_location"),
                  cited_text: external_exports.string(),
                  url: external_exports.string(),
                  title: external_exports.string(),
                  encrypted_index: external_exports.string()
                }),
                external_exports.object({
                  type: external_exports.literal("page_location"),
                  cited_text: external_exports.string(),
                  document_index: external_exports.number(),
                  document_title: external_exports.string().nullable(),
                  start_page_number: external_exports.number(),
                  end_page_number: external_exports.number()
                }),
                external_exports.object({
                  type: external_exports.literal("char_location"),
                  cited_text: external_exports.string(),
                  document_index: external_exports.number(),
                  document_title: external_exports.string().nullable(),
                  start_char_index: external_exports.number(),
                  end_char_index: external_exports.number()
                })
              ])
            ).optional()
          }),
          external_exports.object({
            type: external_exports.literal("thinking"),
            thinking: external_exports.string(),
            signature: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("redacted_thinking"),
            data: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("compaction"),
            content: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            input: external_exports.unknown(),
            // Programmatic tool calling: caller info when triggered from code execution
            caller: anthropicToolCallCallerSchema().optional(),
            // Toolsets (e.g. computer toolset): name of the toolset this member call belongs to
            toolset_name: external_exports.string().nullish()
          }),
          external_exports.object({
            type: external_exports.literal("server_tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            input: external_exports.record(external_exports.string(), external_exports.unknown()).nullish(),
            caller: anthropicToolCallCallerSchema().optional()
          }),
          external_exports.object({
            type: external_exports.literal("mcp_tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            input: external_exports.unknown(),
            server_name: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("mcp_tool_result"),
            tool_use_id: external_exports.string(),
            is_error: external_exports.boolean(),
            content: external_exports.array(
              external_exports.union([
                external_exports.string(),
                external_exports.object({ type: external_exports.literal("text"), text: external_exports.string() })
              ])
            )
          }),
          external_exports.object({
            type: external_exports.literal("web_fetch_tool_result"),
            tool_use_id: external_exports.string(),
            caller: anthropicToolCallCallerSchema().optional(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("web_fetch_result"),
                url: external_exports.string(),
                retrieved_at: external_exports.string(),
                content: external_exports.object({
                  type: external_exports.literal("document"),
                  title: external_exports.string().nullable(),
                  citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
                  source: external_exports.union([
                    external_exports.object({
                      type: external_exports.literal("base64"),
                      media_type: external_exports.literal("application/pdf"),
                      data: external_exports.string()
                    }),
                    external_exports.object({
                      type: external_exports.literal("text"),
                      media_type: external_exports.literal("text/plain"),
                      data: external_exports.string()
                    })
                  ])
                })
              }),
              external_exports.object({
                type: external_exports.literal("web_fetch_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          external_exports.object({
            type: external_exports.literal("web_search_tool_result"),
            tool_use_id: external_exports.string(),
            caller: anthropicToolCallCallerSchema().optional(),
            content: external_exports.union([
              external_exports.array(
                external_exports.object({
                  type: external_exports.literal("web_search_result"),
                  url: external_exports.string(),
                  title: external_exports.string(),
                  encrypted_content: external_exports.string(),
                  page_age: external_exports.string().nullish()
                })
              ),
              external_exports.object({
                type: external_exports.literal("web_search_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // code execution results for code_execution_20250522 tool:
          external_exports.object({
            type: external_exports.literal("code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("code_execution_result"),
                stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number(),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("code_execution_output"),
                    file_id: external_exports.string()
                  })
                ).optional().default([])
              }),
              external_exports.object({
                type: external_exports.literal("encrypted_code_execution_result"),
                encrypted_stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number(),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("code_execution_output"),
                    file_id: external_exports.string()
                  })
                ).optional().default([])
              }),
              external_exports.object({
                type: external_exports.literal("code_execution_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // bash code execution results for code_execution_20250825 tool:
          external_exports.object({
            type: external_exports.literal("bash_code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("bash_code_execution_result"),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("bash_code_execution_output"),
                    file_id: external_exports.string()
                  })
                ),
                stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number()
              }),
              external_exports.object({
                type: external_exports.literal("bash_code_execution_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // text editor code execution results for code_execution_20250825 tool:
          external_exports.object({
            type: external_exports.literal("text_editor_code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_tool_result_error"),
                error_code: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_view_result"),
                content: external_exports.string(),
                file_type: external_exports.string(),
                num_lines: external_exports.number().nullable(),
                start_line: external_exports.number().nullable(),
                total_lines: external_exports.number().nullable()
              }),
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_create_result"),
                is_file_update: external_exports.boolean()
              }),
              external_exports.object({
                type: external_exports.literal(
                  "text_editor_code_execution_str_replace_result"
                ),
                lines: external_exports.array(external_exports.string()).nullable(),
                new_lines: external_exports.number().nullable(),
                new_start: external_exports.number().nullable(),
                old_lines: external_exports.number().nullable(),
                old_start: external_exports.number().nullable()
              })
            ])
          }),
          // tool search tool results for tool_search_tool_regex_20251119 and tool_search_tool_bm25_20251119:
          external_exports.object({
            type: external_exports.literal("tool_search_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("tool_search_tool_search_result"),
                tool_references: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("tool_reference"),
                    tool_name: external_exports.string()
                  })
                )
              }),
              external_exports.object({
                type: external_exports.literal("tool_search_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // advisor results for advisor_20260301:
          external_exports.object({
            type: external_exports.literal("advisor_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("advisor_result"),
                text: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("advisor_redacted_result"),
                encrypted_content: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("advisor_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // Server-side fallback marker. Parsed so the response validates, but
          // dropped from the content output (the AI SDK has no model-hop
          // primitive). The hop remains observable via usage.iterations.
          external_exports.object({
            type: external_exports.literal("fallback")
          })
        ])
      ),
      stop_reason: external_exports.string().nullish(),
      stop_sequence: external_exports.string().nullish(),
      stop_details: anthropicStopDetailsSchema().nullish(),
      input_transformations: external_exports.array(anthropicInputTransformationSchema()).nullish(),
      safeguard_results: external_exports.array(anthropicSafeguardResultSchema()).nullish(),
      usage: external_exports.looseObject({
        input_tokens: external_exports.number(),
        output_tokens: external_exports.number(),
        output_tokens_details: external_exports.object({
          thinking_tokens: external_exports.number().nullish()
        }).nullish(),
        cache_creation_input_tokens: external_exports.number().nullish(),
        cache_read_input_tokens: external_exports.number().nullish(),
        iterations: external_exports.array(
          external_exports.object({
            type: external_exports.union([
              external_exports.literal("compaction"),
              external_exports.literal("message"),
              external_exports.literal("advisor_message"),
              external_exports.literal("fallback_message")
            ]),
            model: external_exports.string().nullish(),
            input_tokens: external_exports.number(),
            output_tokens: external_exports.number(),
            cache_creation_input_tokens: external_exports.number().nullish(),
            cache_read_input_tokens: external_exports.number().nullish()
          })
        ).nullish()
      }),
      container: external_exports.object({
        expires_at: external_exports.string(),
        id: external_exports.string(),
        skills: external_exports.array(
          external_exports.object({
            type: external_exports.union([external_exports.literal("anthropic"), external_exports.literal("custom")]),
            skill_id: external_exports.string(),
            version: external_exports.string()
          })
        ).nullish()
      }).nullish(),
      context_management: external_exports.object({
        applied_edits: external_exports.array(
          external_exports.union([
            external_exports.object({
              type: external_exports.literal("clear_tool_uses_20250919"),
              cleared_tool_uses: external_exports.number(),
              cleared_input_tokens: external_exports.number()
            }),
            external_exports.object({
              type: external_exports.literal("clear_thinking_20251015"),
              cleared_thinking_turns: external_exports.number(),
              cleared_input_tokens: external_exports.number()
            }),
            external_exports.object({
              type: external_exports.literal("compact_20260112")
            })
          ])
        )
      }).nullish()
    })
  )
);
var anthropicMessagesChunkSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      external_exports.object({
        type: external_exports.literal("message_start"),
        message: external_exports.object({
          id: external_exports.string().nullish(),
          model: external_exports.string().nullish(),
          role: external_exports.string().nullish(),
          usage: external_exports.looseObject({
            input_tokens: external_exports.number(),
            cache_creation_input_tokens: external_exports.number().nullish(),
            cache_read_input_tokens: external_exports.number().nullish()
          }),
          // Programmatic tool calling: content may be pre-populated for deferred tool calls
          content: external_exports.array(
            external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("tool_use"),
                id: external_exports.string(),
                name: external_exports.string(),
                input: external_exports.unknown(),
                caller: anthropicToolCallCallerSchema().optional(),
                toolset_name: external_exports.string().nullish()
              })
            ])
          ).nullish(),
          stop_reason: external_exports.string().nullish(),
          input_transformations: external_exports.array(anthropicInputTransformationSchema()).nullish(),
          container: external_exports.object({
            expires_at: external_exports.string(),
            id: external_exports.string()
          }).nullish()
        })
      }),
      external_exports.object({
        type: external_exports.literal("content_block_start"),
        index: external_exports.number(),
        content_block: external_exports.discriminatedUnion("type", [
          external_exports.object({
            type: external_exports.literal("text"),
            text: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("thinking"),
            thinking: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            // Programmatic tool calling: input may be present directly for deferred tool calls
            input: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
            // Programmatic tool calling: caller info when triggered from code execution
            caller: anthropicToolCallCallerSchema().optional(),
            // Toolsets (e.g. computer toolset): name of the toolset this member call belongs to
            toolset_name: external_exports.string().nullish()
          }),
          external_exports.object({
            type: external_exports.literal("redacted_thinking"),
            data: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("compaction"),
            content: external_exports.string().nullish()
          }),
          external_exports.object({
            type: external_exports.literal("server_tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            input: external_exports.record(external_exports.string(), external_exports.unknown()).nullish(),
            caller: anthropicToolCallCallerSchema().optional()
          }),
          external_exports.object({
            type: external_exports.literal("mcp_tool_use"),
            id: external_exports.string(),
            name: external_exports.string(),
            input: external_exports.unknown(),
            server_name: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("mcp_tool_result"),
            tool_use_id: external_exports.string(),
            is_error: external_exports.boolean(),
            content: external_exports.array(
              external_exports.union([
                external_exports.string(),
                external_exports.object({ type: external_exports.literal("text"), text: external_exports.string() })
              ])
            )
          }),
          external_exports.object({
            type: external_exports.literal("web_fetch_tool_result"),
            tool_use_id: external_exports.string(),
            caller: anthropicToolCallCallerSchema().optional(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("web_fetch_result"),
                url: external_exports.string(),
                retrieved_at: external_exports.string(),
                content: external_exports.object({
                  type: external_exports.literal("document"),
                  title: external_exports.string().nullable(),
                  citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
                  source: external_exports.union([
                    external_exports.object({
                      type: external_exports.literal("base64"),
                      media_type: external_exports.literal("application/pdf"),
                      data: external_exports.string()
                    }),
                    external_exports.object({
                      type: external_exports.literal("text"),
                      media_type: external_exports.literal("text/plain"),
                      data: external_exports.string()
                    })
                  ])
                })
              }),
              external_exports.object({
                type: external_exports.literal("web_fetch_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          external_exports.object({
            type: external_exports.literal("web_search_tool_result"),
            tool_use_id: external_exports.string(),
            caller: anthropicToolCallCallerSchema().optional(),
            content: external_exports.union([
              external_exports.array(
                external_exports.object({
                  type: external_exports.literal("web_search_result"),
                  url: external_exports.string(),
                  title: external_exports.string(),
                  encrypted_content: external_exports.string(),
                  page_age: external_exports.string().nullish()
                })
              ),
              external_exports.object({
                type: external_exports.literal("web_search_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // code execution results for code_execution_20250522 tool:
          external_exports.object({
            type: external_exports.literal("code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("code_execution_result"),
                stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number(),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("code_execution_output"),
                    file_id: external_exports.string()
                  })
                ).optional().default([])
              }),
              external_exports.object({
                type: external_exports.literal("encrypted_code_execution_result"),
                encrypted_stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number(),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("code_execution_output"),
                    file_id: external_exports.string()
                  })
                ).optional().default([])
              }),
              external_exports.object({
                type: external_exports.literal("code_execution_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // bash code execution results for code_execution_20250825 tool:
          external_exports.object({
            type: external_exports.literal("bash_code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("bash_code_execution_result"),
                content: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("bash_code_execution_output"),
                    file_id: external_exports.string()
                  })
                ),
                stdout: external_exports.string(),
                stderr: external_exports.string(),
                return_code: external_exports.number()
              }),
              external_exports.object({
                type: external_exports.literal("bash_code_execution_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // text editor code execution results for code_execution_20250825 tool:
          external_exports.object({
            type: external_exports.literal("text_editor_code_execution_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_tool_result_error"),
                error_code: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_view_result"),
                content: external_exports.string(),
                file_type: external_exports.string(),
                num_lines: external_exports.number().nullable(),
                start_line: external_exports.number().nullable(),
                total_lines: external_exports.number().nullable()
              }),
              external_exports.object({
                type: external_exports.literal("text_editor_code_execution_create_result"),
                is_file_update: external_exports.boolean()
              }),
              external_exports.object({
                type: external_exports.literal(
                  "text_editor_code_execution_str_replace_result"
                ),
                lines: external_exports.array(external_exports.string()).nullable(),
                new_lines: external_exports.number().nullable(),
                new_start: external_exports.number().nullable(),
                old_lines: external_exports.number().nullable(),
                old_start: external_exports.number().nullable()
              })
            ])
          }),
          // tool search tool results for tool_search_tool_regex_20251119 and tool_search_tool_bm25_20251119:
          external_exports.object({
            type: external_exports.literal("tool_search_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.union([
              external_exports.object({
                type: external_exports.literal("tool_search_tool_search_result"),
                tool_references: external_exports.array(
                  external_exports.object({
                    type: external_exports.literal("tool_reference"),
                    tool_name: external_exports.string()
                  })
                )
              }),
              external_exports.object({
                type: external_exports.literal("tool_search_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // advisor results for advisor_20260301:
          external_exports.object({
            type: external_exports.literal("advisor_tool_result"),
            tool_use_id: external_exports.string(),
            content: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("advisor_result"),
                text: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("advisor_redacted_result"),
                encrypted_content: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("advisor_tool_result_error"),
                error_code: external_exports.string()
              })
            ])
          }),
          // Server-side fallback marker; dropped from content output (see the
          // response schema). The hop remains observable via usage.iterations.
          external_exports.object({
            type: external_exports.literal("fallback")
          })
        ])
      }),
      external_exports.object({
        type: external_exports.literal("content_block_delta"),
        index: external_exports.number(),
        delta: external_exports.discriminatedUnion("type", [
          external_exports.object({
            type: external_exports.literal("input_json_delta"),
            partial_json: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("text_delta"),
            text: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("thinking_delta"),
            thinking: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("signature_delta"),
            signature: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("compaction_delta"),
            content: external_exports.string().nullish()
          }),
          external_exports.object({
            type: external_exports.literal("citations_delta"),
            citation: external_exports.discriminatedUnion("type", [
              external_exports.object({
                type: external_exports.literal("web_search_result_location"),
                cited_text: external_exports.string(),
                url: external_exports.string(),
                title: external_exports.string(),
                encrypted_index: external_exports.string()
              }),
              external_exports.object({
                type: external_exports.literal("page_location"),
                cited_text: external_exports.string(),
                document_index: external_exports.number(),
                document_title: external_exports.string().nullable(),
                start_page_number: external_exports.number(),
                end_page_number: external_exports.number()
              }),
              external_exports.object({
                type: external_exports.literal("char_location"),
                cited_text: external_exports.string(),
                document_index: external_exports.number(),
                document_title: external_exports.string().nullable(),
                start_char_index: external_exports.number(),
                end_char_index: external_exports.number()
              })
            ])
          })
        ])
      }),
      external_exports.object({
        type: external_exports.literal("content_block_stop"),
        index: external_exports.number()
      }),
      external_exports.object({
        type: external_exports.literal("error"),
        error: external_exports.object({
          type: external_exports.string(),
          message: external_exports.string()
        })
      }),
      external_exports.object({
        type: external_exports.literal("message_delta"),
        delta: external_exports.object({
          stop_reason: external_exports.string().nullish(),
          stop_sequence: external_exports.string().nullish(),
          stop_details: anthropicStopDetailsSchema().nullish(),
          safeguard_results: external_exports.array(anthropicSafeguardResultSchema()).nullish(),
          container: external_exports.object({
            expires_at: external_exports.string(),
            id: external_exports.string(),
            skills: external_exports.array(
              external_exports.object({
                type: external_exports.union([
                  external_exports.literal("anthropic"),
                  external_exports.literal("custom")
                ]),
                skill_id: external_exports.string(),
                version: external_exports.string()
              })
            ).nullish()
          }).nullish()
        }),
        usage: external_exports.looseObject({
          input_tokens: external_exports.number().nullish(),
          output_tokens: external_exports.number(),
          output_tokens_details: external_exports.object({
            thinking_tokens: external_exports.number().nullish()
          }).nullish(),
          cache_creation_input_tokens: external_exports.number().nullish(),
          cache_read_input_tokens: external_exports.number().nullish(),
          iterations: external_exports.array(
            external_exports.object({
              type: external_exports.union([
                external_exports.literal("compaction"),
                external_exports.literal("message"),
                external_exports.literal("advisor_message"),
                external_exports.literal("fallback_message")
              ]),
              model: external_exports.string().nullish(),
              input_tokens: external_exports.number(),
              output_tokens: external_exports.number(),
              cache_creation_input_tokens: external_exports.number().nullish(),
              cache_read_input_tokens: external_exports.number().nullish()
            })
          ).nullish()
        }),
        input_transformations: external_exports.array(anthropicInputTransformationSchema()).nullish(),
        context_management: external_exports.object({
          applied_edits: external_exports.array(
            external_exports.union([
              external_exports.object({
                type: external_exports.literal("clear_tool_uses_20250919"),
                cleared_tool_uses: external_exports.number(),
                cleared_input_tokens: external_exports.number()
              }),
              external_exports.object({
                type: external_exports.literal("clear_thinking_20251015"),
                cleared_thinking_turns: external_exports.number(),
                cleared_input_tokens: external_exports.number()
              }),
              external_exports.object({
                type: external_exports.literal("compact_20260112")
              })
            ])
          )
        }).nullish()
      }),
      external_exports.object({
        type: external_exports.literal("message_stop")
      }),
      external_exports.object({
        type: external_exports.literal("ping")
      })
    ])
  )
);
var anthropicReasoningMetadataSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      signature: external_exports.string().optional(),
      redactedData: external_exports.string().optional()
    })
  )
);
var anthropicFilePartProviderOptions = lazySchema(
  () => zodSchema(
    external_exports.object({
      /**
       * Citation configuration for this document.
       * When enabled, this document will generate citations in the response.
       */
      citations: external_exports.object({
        /**
         * Enable citations for this document
         */
        enabled: external_exports.boolean()
      }).optional(),
      /**
       * Custom title for the document.
       * If not provided, the filename will be used.
       */
      title: external_exports.string().optional(),
      /**
       * Context about the document that will be passed to the model
       * but not used towards cited content.
       * Useful for storing document metadata as text or stringified JSON.
       */
      context: external_exports.string().optional()
    })
  )
);
var anthropicSystemMessageProviderOptions = lazySchema(
  () => zodSchema(
    external_exports.object({
      /**
       * Clears this mid-conversation system message after the current turn.
       *
       * Requires the `mid-conversation-system-clear-at-2026-08-21` beta,
       * which is added automatically.
       */
      clearAt: external_exports.literal("next_user_message").optional(),
      /**
       * Sets the model effort from the next user turn until a later message
       * changes it. An effort-only system message with empty content can appear
       * first. The required `mid-conversation-output-config-2026-07-01` beta is
       * added automatically.
       */
      effort: external_exports.enum(["low", "medium", "high", "xhigh", "max"]).optional(),
      /**
       * Mid-conversation tool changes. Adds or removes tools from the
       * conversation's tool set between turns without invalidating the prompt
       * cache.
       *
       * Only supported on system messages that appear mid-conversation (not the
       * initial system prompt). A system message carrying tool changes must come
       * right before an assistant message or at the end of the messages.
       *
       * A `tool_addition` either references a tool by `toolName` or defines it
       * by value with `tool`:
       * - By reference: the tool must be declared in the `tools` option
       *   (typically with `deferLoading: true` so it is not loaded until the
       *   addition surfaces it). The required
       *   `mid-conversation-tool-changes-2026-07-01` beta is added
       *   automatically.
       * - By value: `tool` is a function or provider tool, in the same shape as
       *   an entry of the `tools` option. The tool does not need to be declared
       *   in `tools`, and defining a tool under an existing name replaces it
       *   from that point on. The required `inline-tools-2026-09-15` beta is
       *   added automatically.
       *
       * A `tool_removal` always references the tool by `toolName`.
       */
      toolChanges: external_exports.array(
        external_exports.union([
          external_exports.object({
            type: external_exports.literal("tool_addition"),
            toolName: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("tool_addition"),
            tool: external_exports.union([
              external_exports.looseObject({
                type: external_exports.literal("function"),
                name: external_exports.string(),
                inputSchema: external_exports.record(external_exports.string(), external_exports.unknown())
              }),
              external_exports.looseObject({
                type: external_exports.literal("provider"),
                id: external_exports.string(),
                name: external_exports.string(),
                args: external_exports.record(external_exports.string(), external_exports.unknown())
              })
            ])
          }),
          external_exports.object({
            type: external_exports.literal("tool_removal"),
            toolName: external_exports.string()
          })
        ])
      ).optional()
    })
  )
);
var anthropicLanguageModelOptions = lazySchema(() => {
  const anthropicThinkingBlockBinding = external_exports.object({
    prefixMismatchBehavior: external_exports.enum(["error", "drop_block"])
  });
  return zodSchema(
    external_exports.object({
      /**
       * Whether to send reasoning to the model.
       *
       * This allows you to deactivate reasoning inputs for models that do not support them.
       */
      sendReasoning: external_exports.boolean().optional(),
      /**
       * Determines how structured outputs are generated.
       *
       * - `outputFormat`: Use the `output_config.format` parameter to specify the structured output format.
       * - `jsonTool`: Use a special 'json' tool to specify the structured output format.
       * - `auto`: Use 'outputFormat' when supported, otherwise use 'jsonTool' (default).
       */
      structuredOutputMode: external_exports.enum(["outputFormat", "jsonTool", "auto"]).optional(),
      /**
       * Configuration for enabling Claude's extended thinking.
       *
       * When enabled, responses include thinking content blocks showing Claude's thinking process before the final answer.
       * Requires a minimum budget of 1,024 tokens and counts towards the `max_tokens` limit.
       *
       * Models that always use adaptive thinking (e.g. `claude-opus-5-5`,
       * `claude-fable-5-1`) reject `enabled` and `disabled`. For those models the
       * provider drops the unsupported setting, emits a warning, and sends an
       * adaptive thinking request. Use `effort` to control how much they think.
       *
       * `claude-sonnet-5-5` supports `between_tools`, its lowest thinking setting,
       * and the provider uses it in place of `disabled` for that model.
       */
      thinking: external_exports.union([
        external_exports.discriminatedUnion("type", [
          external_exports.object({
            /** for Sonnet 4.6, Opus 4.6, and newer models */
            type: external_exports.literal("adaptive"),
            /**
             * Controls whether thinking content is included in the response.
             * - `"omitted"`: Thinking blocks are present but text is empty (default for Opus 4.7+).
             * - `"summarized"`: Thinking content is returned. Required to see reasoning output.
             * - `"updates"`: Thinking updates are returned between tool calls.
             */
            display: external_exports.enum(["omitted", "summarized", "updates"]).optional(),
            /**
             * Controls how thinking blocks are bound to an assistant prefix.
             *
             * Requires the `thinking-binding-controls-2026-08-01` beta,
             * which is added automatically.
             */
            blockBinding: anthropicThinkingBlockBinding.optional()
          }),
          external_exports.object({
            /** for models before Opus 4.6, except Sonnet 4.6 still supports it */
            type: external_exports.literal("enabled"),
            budgetTokens: external_exports.number().optional()
          }),
          external_exports.object({
            type: external_exports.literal("disabled")
          }),
          external_exports.object({
            /**
             * for `claude-sonnet-5-5`: no upfront thinking, but progress notes
             * between tool calls are returned as summarized thinking blocks.
             * Only supported at `low`, `medium`, and `high` effort.
             */
            type: external_exports.literal("between_tools")
          })
        ]),
        /**
         * Configures prefix mismatch recovery without changing the model's
         * default thinking mode.
         */
        external_exports.object({
          blockBinding: anthropicThinkingBlockBinding
        })
      ]).optional(),
      /**
       * Whether to disable parallel function calling during tool use. Default is false.
       * When set to true, Claude will use at most one tool per response.
       */
      disableParallelToolUse: external_exports.boolean().optional(),
      /**
       * Cache control settings for this message.
       * See https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
       */
      cacheControl: external_exports.object({
        type: external_exports.literal("ephemeral"),
        ttl: external_exports.union([external_exports.literal("5m"), external_exports.literal("1h")]).optional()
      }).optional(),
      /**
       * Metadata to include with the request.
       *
       * See https://platform.claude.com/docs/en/api/messages/create for details.
       */
      metadata: external_exports.object({
        /**
         * An external identifier for the user associated with the request.
         *
         * Should be a UUID, hash value, or other opaque identifier.
         * Must not contain PII (name, email, phone number, etc.).
         */
        userId: external_exports.string().optional()
      }).optional(),
      /**
       * MCP servers to be utilized in this request.
       */
      mcpServers: external_exports.array(
        external_exports.object({
          type: external_exports.literal("url"),
          name: external_exports.string(),
          url: external_exports.string(),
          authorizationToken: external_exports.string().nullish(),
          toolConfiguration: external_exports.object({
            enabled: external_exports.boolean().nullish(),
            allowedTools: external_exports.array(external_exports.string()).nullish()
          }).nullish()
        })
      ).optional(),
      /**
       * Agent Skills configuration. Skills enable Claude to perform specialized tasks
       * like document processing (PPTX, DOCX, PDF, XLSX) and data analysis.
       * Requires code execution tool to be enabled.
       */
      container: external_exports.object({
        id: external_exports.string().optional(),
        skills: external_exports.array(
          external_exports.object({
            type: external_exports.union([external_exports.literal("anthropic"), external_exports.literal("custom")]),
            skillId: external_exports.string(),
            version: external_exports.string().optional()
          })
        ).optional()
      }).optional(),
      /**
       * Whether to enable fine-grained (eager) streaming of tool call inputs
       * and structured outputs for every function tool in the request. When
       * true (the default), each function tool receives a default of
       * `eager_input_streaming: true` unless it explicitly sets
       * `providerOptions.anthropic.eagerInputStreaming`.
       *
       * @default true
       */
      toolStreaming: external_exports.boolean().optional(),
      /**
       * Controls how much effort the model spends on thinking, text responses,
       * and tool calls. On models that always use adaptive thinking
       * (e.g. `claude-opus-5-5`), effort is the main lever for latency and cost.
       *
       * The API default is `high` for most models and `medium` for `claude-opus-5-5`.
       */
      effort: external_exports.enum(["low", "medium", "high", "xhigh", "max"]).optional(),
      /**
       * Task budget for agentic turns. Informs the model of the total token budget
       * available for the current task, allowing it to prioritize work and wind down
       * gracefully as the budget is consumed.
       *
       * Advisory only — does not enforce a hard token limit.
       */
      taskBudget: external_exports.object({
        type: external_exports.literal("tokens"),
        total: external_exports.number().int().min(2e4),
        remaining: external_exports.number().int().min(0).optional()
      }).optional(),
      /**
       * Enable fast mode for faster inference (2.5x faster output token speeds).
       * Only supported with claude-opus-4-6.
       */
      speed: external_exports.enum(["fast", "standard"]).optional(),
      /**
       * Controls where model inference runs for this request.
       *
       * - `"global"`: Inference may run in any available geography (default).
       * - `"us"`: Inference runs only in US-based infrastructure.
       *
       * See https://platform.claude.com/docs/en/build-with-claude/data-residency
       */
      inferenceGeo: external_exports.enum(["us", "global"]).optional(),
      /**
       * Server-side fallback configuration.
       *
       * When the primary model's safety classifiers block a turn, the API
       * automatically retries it server-side on a fallback model. A
       * `content-filter` finish reason means the fallback(s) refused as well.
       *
       * - `'default'` (recommended): the API routes the retry to Anthropic's
       *   recommended fallback model based on the refusal category. Requires the
       *   `server-side-fallback-2026-07-01` beta, which is added automatically.
       * - Array form: an explicit fallback chain. Each entry is merged into the
       *   request as a direct request to that entry's model, so it must be
       *   formatted accordingly: `model` is required, and an entry may
       *   additionally override `max_tokens`, `thinking`, `output_config`, and
       *   `speed` for that attempt only (`speed` additionally requires the speed
       *   beta). The value is passed through to the API as-is, and the
       *   `server-side-fallback-2026-06-01` beta is added automatically.
       */
      fallbacks: external_exports.union([
        external_exports.literal("default"),
        external_exports.array(
          external_exports.object({
            model: external_exports.string(),
            max_tokens: external_exports.number().int().optional(),
            thinking: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
            output_config: external_exports.record(external_exports.string(), external_exports.unknown()).optional(),
            speed: external_exports.enum(["fast", "standard"]).optional()
          })
        )
      ]).optional(),
      /**
       * A set of beta features to enable.
       * Allow a provider to receive the full `betas` set if it needs it.
       */
      anthropicBeta: external_exports.array(external_exports.string()).optional(),
      /**
       * Server-side safeguards to run as part of the request.
       *
       * `dangerous_tool_use` asks the API to classify every `tool_use` block in
       * the response for dangerous actions (the check Claude Code's auto mode
       * relies on). The per-call verdicts are returned in
       * `providerMetadata.anthropic.safeguardResults`, keyed by tool call id.
       * `classifierContext` is passed through to the API as `classifier_context`.
       * The `dangerous-tool-use-2026-09-03` beta is added automatically.
       */
      safeguards: external_exports.array(
        external_exports.object({
          type: external_exports.literal("dangerous_tool_use"),
          classifierContext: external_exports.record(external_exports.string(), external_exports.unknown()).optional()
        })
      ).optional(),
      contextManagement: external_exports.object({
        edits: external_exports.array(
          external_exports.discriminatedUnion("type", [
            external_exports.object({
              type: external_exports.literal("clear_tool_uses_20250919"),
              trigger: external_exports.discriminatedUnion("type", [
                external_exports.object({
                  type: external_exports.literal("input_tokens"),
                  value: external_exports.number()
                }),
                external_exports.object({
                  type: external_exports.literal("tool_uses"),
                  value: external_exports.number()
                })
              ]).optional(),
              keep: external_exports.object({
                type: external_exports.literal("tool_uses"),
                value: external_exports.number()
              }).optional(),
              clearAtLeast: external_exports.object({
                type: external_exports.literal("input_tokens"),
                value: external_exports.number()
              }).optional(),
              clearToolInputs: external_exports.boolean().optional(),
              excludeTools: external_exports.array(external_exports.string()).optional()
            }),
            external_exports.object({
              type: external_exports.literal("clear_thinking_20251015"),
              keep: external_exports.union([
                external_exports.literal("all"),
                external_exports.object({
                  type: external_exports.literal("thinking_turns"),
                  value: external_exports.number()
                })
              ]).optional()
            }),
            external_exports.object({
              type: external_exports.literal("compact_20260112"),
              trigger: external_exports.object({
                type: external_exports.literal("input_tokens"),
                value: external_exports.number()
              }).optional(),
              pauseAfterCompaction: external_exports.boolean().optional(),
              instructions: external_exports.string().optional()
            })
          ])
        )
      }).optional()
    })
  );
});
var MAX_CACHE_BREAKPOINTS = 4;
function getCacheControl(providerMetadata, providerOptionsName) {
  var _a, _b, _c;
  const custom = providerMetadata == null ? void 0 : providerMetadata[providerOptionsName];
  const anthropic2 = providerMetadata == null ? void 0 : providerMetadata.anthropic;
  const cacheControlValue = (_c = (_b = (_a = custom == null ? void 0 : custom.cacheControl) != null ? _a : custom == null ? void 0 : custom.cache_control) != null ? _b : anthropic2 == null ? void 0 : anthropic2.cacheControl) != null ? _c : anthropic2 == null ? void 0 : anthropic2.cache_control;
  return cacheControlValue;
}
var CacheControlValidator = class {
  constructor(providerOptionsName = "anthropic") {
    this.providerOptionsName = providerOptionsName;
    this.breakpointCount = 0;
    this.warnings = [];
  }
  getCacheControl(providerMetadata, context) {
    const cacheControlValue = getCacheControl(
      providerMetadata,
      this.providerOptionsName
    );
    if (!cacheControlValue) {
      return void 0;
    }
    if (!context.canCache) {
      this.warnings.push({
        type: "unsupported",
        feature: "cache_control on non-cacheable context",
        details: `cache_control cannot be set on ${context.type}. It will be ignored.`
      });
      return void 0;
    }
    this.breakpointCount++;
    if (this.breakpointCount > MAX_CACHE_BREAKPOINTS) {
      this.warnings.push({
        type: "unsupported",
        feature: "cacheControl breakpoint limit",
        details: `Maximum ${MAX_CACHE_BREAKPOINTS} cache breakpoints exceeded (found ${this.breakpointCount}). This breakpoint will be ignored.`
      });
      return void 0;
    }
    return cacheControlValue;
  }
  getWarnings() {
    return this.warnings;
  }
};
var advisor_20260301ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      model: external_exports.string(),
      maxUses: external_exports.number().optional(),
      caching: external_exports.object({
        type: external_exports.literal("ephemeral"),
        ttl: external_exports.union([external_exports.literal("5m"), external_exports.literal("1h")])
      }).optional()
    })
  )
);
var advisor_20260301OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      external_exports.object({
        type: external_exports.literal("advisor_result"),
        text: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("advisor_redacted_result"),
        encryptedContent: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("advisor_tool_result_error"),
        errorCode: external_exports.string()
      })
    ])
  )
);
var advisor_20260301InputSchema = lazySchema(
  () => zodSchema(external_exports.object({}).strict())
);
var factory = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.advisor_20260301",
  inputSchema: advisor_20260301InputSchema,
  outputSchema: advisor_20260301OutputSchema,
  supportsDeferredResults: true
});
var advisor_20260301 = (args) => {
  return factory(args);
};
var computerToolset_20260801Members = [
  "screenshot",
  "zoom",
  "left_click",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "left_click_drag",
  "mouse_move",
  "left_mouse_down",
  "left_mouse_up",
  "cursor_position",
  "scroll",
  "type",
  "key",
  "hold_key",
  "wait"
];
var computerToolset_20260801InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      action: external_exports.enum(computerToolset_20260801Members),
      coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      duration: external_exports.number().optional(),
      region: external_exports.tuple([
        external_exports.number().int(),
        external_exports.number().int(),
        external_exports.number().int(),
        external_exports.number().int()
      ]).optional(),
      repeat: external_exports.number().int().optional(),
      scroll_amount: external_exports.number().optional(),
      scroll_direction: external_exports.enum(["up", "down", "left", "right"]).optional(),
      start_coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      text: external_exports.string().optional()
    })
  )
);
var computerToolset_20260801ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      configs: external_exports.partialRecord(
        external_exports.enum(computerToolset_20260801Members),
        external_exports.object({
          enabled: external_exports.boolean().optional(),
          deferLoading: external_exports.boolean().optional()
        })
      ).optional()
    })
  )
);
var computerToolset_20260801 = createProviderToolFactory({
  id: "anthropic.computer_toolset_20260801",
  inputSchema: computerToolset_20260801InputSchema
});
var textEditor_20250728ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      maxCharacters: external_exports.number().optional()
    })
  )
);
var textEditor_20250728InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.enum(["view", "create", "str_replace", "insert"]),
      path: external_exports.string(),
      file_text: external_exports.string().optional(),
      insert_line: external_exports.number().int().optional(),
      new_str: external_exports.string().optional(),
      insert_text: external_exports.string().optional(),
      old_str: external_exports.string().optional(),
      view_range: external_exports.array(external_exports.number().int()).optional()
    })
  )
);
var factory2 = createProviderToolFactory({
  id: "anthropic.text_editor_20250728",
  inputSchema: textEditor_20250728InputSchema
});
var textEditor_20250728 = (args = {}) => {
  return factory2(args);
};
var webSearch_20260209ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      maxUses: external_exports.number().optional(),
      allowedDomains: external_exports.array(external_exports.string()).optional(),
      blockedDomains: external_exports.array(external_exports.string()).optional(),
      userLocation: external_exports.object({
        type: external_exports.literal("approximate"),
        city: external_exports.string().optional(),
        region: external_exports.string().optional(),
        country: external_exports.string().optional(),
        timezone: external_exports.string().optional()
      }).optional()
    })
  )
);
var webSearch_20260209OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.array(
      external_exports.object({
        url: external_exports.string(),
        title: external_exports.string().nullable(),
        pageAge: external_exports.string().nullable(),
        encryptedContent: external_exports.string(),
        type: external_exports.literal("web_search_result")
      })
    )
  )
);
var webSearch_20260209InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      query: external_exports.string()
    })
  )
);
var factory3 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.web_search_20260209",
  inputSchema: webSearch_20260209InputSchema,
  outputSchema: webSearch_20260209OutputSchema,
  supportsDeferredResults: true
});
var webSearch_20260209 = (args = {}) => {
  return factory3(args);
};
var webSearch_20250305ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      maxUses: external_exports.number().optional(),
      allowedDomains: external_exports.array(external_exports.string()).optional(),
      blockedDomains: external_exports.array(external_exports.string()).optional(),
      userLocation: external_exports.object({
        type: external_exports.literal("approximate"),
        city: external_exports.string().optional(),
        region: external_exports.string().optional(),
        country: external_exports.string().optional(),
        timezone: external_exports.string().optional()
      }).optional()
    })
  )
);
var webSearch_20250305OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.array(
      external_exports.object({
        url: external_exports.string(),
        title: external_exports.string().nullable(),
        pageAge: external_exports.string().nullable(),
        encryptedContent: external_exports.string(),
        type: external_exports.literal("web_search_result")
      })
    )
  )
);
var webSearch_20250305InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      query: external_exports.string()
    })
  )
);
var factory4 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.web_search_20250305",
  inputSchema: webSearch_20250305InputSchema,
  outputSchema: webSearch_20250305OutputSchema,
  supportsDeferredResults: true
});
var webSearch_20250305 = (args = {}) => {
  return factory4(args);
};
var webFetch_20260209ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      maxUses: external_exports.number().optional(),
      allowedDomains: external_exports.array(external_exports.string()).optional(),
      blockedDomains: external_exports.array(external_exports.string()).optional(),
      citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
      maxContentTokens: external_exports.number().optional()
    })
  )
);
var webFetch_20260209OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      type: external_exports.literal("web_fetch_result"),
      url: external_exports.string(),
      content: external_exports.object({
        type: external_exports.literal("document"),
        title: external_exports.string().nullable(),
        citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
        source: external_exports.union([
          external_exports.object({
            type: external_exports.literal("base64"),
            mediaType: external_exports.literal("application/pdf"),
            data: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("text"),
            mediaType: external_exports.literal("text/plain"),
            data: external_exports.string()
          })
        ])
      }),
      retrievedAt: external_exports.string().nullable()
    })
  )
);
var webFetch_20260209InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      url: external_exports.string()
    })
  )
);
var factory5 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.web_fetch_20260209",
  inputSchema: webFetch_20260209InputSchema,
  outputSchema: webFetch_20260209OutputSchema,
  supportsDeferredResults: true
});
var webFetch_20260209 = (args = {}) => {
  return factory5(args);
};
var webFetch_20250910ArgsSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      maxUses: external_exports.number().optional(),
      allowedDomains: external_exports.array(external_exports.string()).optional(),
      blockedDomains: external_exports.array(external_exports.string()).optional(),
      citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
      maxContentTokens: external_exports.number().optional()
    })
  )
);
var webFetch_20250910OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      type: external_exports.literal("web_fetch_result"),
      url: external_exports.string(),
      content: external_exports.object({
        type: external_exports.literal("document"),
        title: external_exports.string().nullable(),
        citations: external_exports.object({ enabled: external_exports.boolean() }).optional(),
        source: external_exports.union([
          external_exports.object({
            type: external_exports.literal("base64"),
            mediaType: external_exports.literal("application/pdf"),
            data: external_exports.string()
          }),
          external_exports.object({
            type: external_exports.literal("text"),
            mediaType: external_exports.literal("text/plain"),
            data: external_exports.string()
          })
        ])
      }),
      retrievedAt: external_exports.string().nullable()
    })
  )
);
var webFetch_20250910InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      url: external_exports.string()
    })
  )
);
var factory6 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.web_fetch_20250910",
  inputSchema: webFetch_20250910InputSchema,
  outputSchema: webFetch_20250910OutputSchema,
  supportsDeferredResults: true
});
var webFetch_20250910 = (args = {}) => {
  return factory6(args);
};
async function prepareTools({
  tools,
  toolChoice,
  hasInlineTools = false,
  disableParallelToolUse,
  cacheControlValidator,
  supportsStructuredOutput,
  supportsStrictTools,
  defaultEagerInputStreaming = false,
  rejectsForcedToolUse = false
}) {
  var _a, _b;
  tools = (tools == null ? void 0 : tools.length) ? tools : void 0;
  const toolWarnings = [];
  const betas = /* @__PURE__ */ new Set();
  const validator = cacheControlValidator || new CacheControlValidator();
  if (tools == null && !hasInlineTools) {
    return { tools: void 0, toolChoice: void 0, toolWarnings, betas };
  }
  const anthropicTools2 = [];
  for (const tool of tools != null ? tools : []) {
    switch (tool.type) {
      case "function": {
        const cacheControl = validator.getCacheControl(tool.providerOptions, {
          type: "tool definition",
          canCache: true
        });
        const anthropicOptions = (_a = tool.providerOptions) == null ? void 0 : _a.anthropic;
        const eagerInputStreaming = (_b = anthropicOptions == null ? void 0 : anthropicOptions.eagerInputStreaming) != null ? _b : defaultEagerInputStreaming;
        const deferLoading = anthropicOptions == null ? void 0 : anthropicOptions.deferLoading;
        const allowedCallers = anthropicOptions == null ? void 0 : anthropicOptions.allowedCallers;
        if (!supportsStrictTools && tool.strict != null) {
          toolWarnings.push({
            type: "unsupported",
            feature: "strict",
            details: `Tool '${tool.name}' has strict: ${tool.strict}, but strict mode is not supported by this provider. The strict property will be ignored.`
          });
        }
        anthropicTools2.push({
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema,
          cache_control: cacheControl,
          ...eagerInputStreaming ? { eager_input_streaming: true } : {},
          ...supportsStrictTools === true && tool.strict != null ? { strict: tool.strict } : {},
          ...deferLoading != null ? { defer_loading: deferLoading } : {},
          ...allowedCallers != null ? { allowed_callers: allowedCallers } : {},
          ...tool.inputExamples != null ? {
            input_examples: tool.inputExamples.map(
              (example) => example.input
            )
          } : {}
        });
        if (supportsStructuredOutput === true) {
          betas.add("structured-outputs-2025-11-13");
        }
        if (tool.inputExamples != null || allowedCallers != null) {
          betas.add("advanced-tool-use-2025-11-20");
        }
        break;
      }
      case "provider": {
        switch (tool.id) {
          case "anthropic.code_execution_20250522": {
            betas.add("code-execution-2025-05-22");
            anthropicTools2.push({
              type: "code_execution_20250522",
              name: "code_execution",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.code_execution_20250825": {
            betas.add("code-execution-2025-08-25");
            anthropicTools2.push({
              type: "code_execution_20250825",
              name: "code_execution"
            });
            break;
          }
          case "anthropic.code_execution_20260120": {
            anthropicTools2.push({
              type: "code_execution_20260120",
              name: "code_execution"
            });
            break;
          }
          case "anthropic.computer_20250124": {
            betas.add("computer-use-2025-01-24");
            anthropicTools2.push({
              name: "computer",
              type: "computer_20250124",
              display_width_px: tool.args.displayWidthPx,
              display_height_px: tool.args.displayHeightPx,
              display_number: tool.args.displayNumber,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.computer_20251124": {
            betas.add("computer-use-2025-11-24");
            anthropicTools2.push({
              name: "computer",
              type: "computer_20251124",
              display_width_px: tool.args.displayWidthPx,
              display_height_px: tool.args.displayHeightPx,
              display_number: tool.args.displayNumber,
              enable_zoom: tool.args.enableZoom,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.computer_toolset_20260801": {
            const args = await validateTypes({
              value: tool.args,
              schema: computerToolset_20260801ArgsSchema
            });
            const configs = args.configs != null ? Object.fromEntries(
              Object.entries(args.configs).map(([member, config]) => [
                member,
                {
                  ...(config == null ? void 0 : config.enabled) != null && {
                    enabled: config.enabled
                  },
                  ...(config == null ? void 0 : config.deferLoading) != null && {
                    defer_loading: config.deferLoading
                  }
                }
              ])
            ) : void 0;
            anthropicTools2.push({
              type: "computer_toolset_20260801",
              ...configs != null && { configs },
              cache_control: void 0
            });
            break;
          }
          case "anthropic.computer_20241022": {
            betas.add("computer-use-2024-10-22");
            anthropicTools2.push({
              name: "computer",
              type: "computer_20241022",
              display_width_px: tool.args.displayWidthPx,
              display_height_px: tool.args.displayHeightPx,
              display_number: tool.args.displayNumber,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.text_editor_20250124": {
            betas.add("computer-use-2025-01-24");
            anthropicTools2.push({
              name: "str_replace_editor",
              type: "text_editor_20250124",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.text_editor_20241022": {
            betas.add("computer-use-2024-10-22");
            anthropicTools2.push({
              name: "str_replace_editor",
              type: "text_editor_20241022",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.text_editor_20250429": {
            betas.add("computer-use-2025-01-24");
            anthropicTools2.push({
              name: "str_replace_based_edit_tool",
              type: "text_editor_20250429",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.text_editor_20250728": {
            const args = await validateTypes({
              value: tool.args,
              schema: textEditor_20250728ArgsSchema
            });
            anthropicTools2.push({
              name: "str_replace_based_edit_tool",
              type: "text_editor_20250728",
              max_characters: args.maxCharacters,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.bash_20250124": {
            betas.add("computer-use-2025-01-24");
            anthropicTools2.push({
              name: "bash",
              type: "bash_20250124",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.bash_20241022": {
            betas.add("computer-use-2024-10-22");
            anthropicTools2.push({
              name: "bash",
              type: "bash_20241022",
              cache_control: void 0
            });
            break;
          }
          case "anthropic.memory_20250818": {
            betas.add("context-management-2025-06-27");
            anthropicTools2.push({
              name: "memory",
              type: "memory_20250818"
            });
            break;
          }
          case "anthropic.web_fetch_20250910": {
            betas.add("web-fetch-2025-09-10");
            const args = await validateTypes({
              value: tool.args,
              schema: webFetch_20250910ArgsSchema
            });
            anthropicTools2.push({
              type: "web_fetch_20250910",
              name: "web_fetch",
              max_uses: args.maxUses,
              allowed_domains: args.allowedDomains,
              blocked_domains: args.blockedDomains,
              citations: args.citations,
              max_content_tokens: args.maxContentTokens,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.web_fetch_20260209": {
            betas.add("code-execution-web-tools-2026-02-09");
            const args = await validateTypes({
              value: tool.args,
              schema: webFetch_20260209ArgsSchema
            });
            anthropicTools2.push({
              type: "web_fetch_20260209",
              name: "web_fetch",
              max_uses: args.maxUses,
              allowed_domains: args.allowedDomains,
              blocked_domains: args.blockedDomains,
              citations: args.citations,
              max_content_tokens: args.maxContentTokens,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.web_search_20250305": {
            const args = await validateTypes({
              value: tool.args,
              schema: webSearch_20250305ArgsSchema
            });
            anthropicTools2.push({
              type: "web_search_20250305",
              name: "web_search",
              max_uses: args.maxUses,
              allowed_domains: args.allowedDomains,
              blocked_domains: args.blockedDomains,
              user_location: args.userLocation,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.web_search_20260209": {
            betas.add("code-execution-web-tools-2026-02-09");
            const args = await validateTypes({
              value: tool.args,
              schema: webSearch_20260209ArgsSchema
            });
            anthropicTools2.push({
              type: "web_search_20260209",
              name: "web_search",
              max_uses: args.maxUses,
              allowed_domains: args.allowedDomains,
              blocked_domains: args.blockedDomains,
              user_location: args.userLocation,
              cache_control: void 0
            });
            break;
          }
          case "anthropic.tool_search_regex_20251119": {
            anthropicTools2.push({
              type: "tool_search_tool_regex_20251119",
              name: "tool_search_tool_regex"
            });
            break;
          }
          case "anthropic.tool_search_bm25_20251119": {
            anthropicTools2.push({
              type: "tool_search_tool_bm25_20251119",
              name: "tool_search_tool_bm25"
            });
            break;
          }
          case "anthropic.advisor_20260301": {
            betas.add("advisor-tool-2026-03-01");
            const args = await validateTypes({
              value: tool.args,
              schema: advisor_20260301ArgsSchema
            });
            anthropicTools2.push({
              type: "advisor_20260301",
              name: "advisor",
              model: args.model,
              ...args.maxUses !== void 0 && { max_uses: args.maxUses },
              ...args.caching !== void 0 && { caching: args.caching }
            });
            break;
          }
          default: {
            toolWarnings.push({
              type: "unsupported",
              feature: `provider-defined tool ${tool.id}`
            });
            break;
          }
        }
        break;
      }
      default: {
        toolWarnings.push({
          type: "unsupported",
          feature: `tool ${tool}`
        });
        break;
      }
    }
  }
  const declaredTools = tools == null ? void 0 : anthropicTools2;
  if (toolChoice == null) {
    return {
      tools: declaredTools,
      toolChoice: disableParallelToolUse ? { type: "auto", disable_parallel_tool_use: disableParallelToolUse } : void 0,
      toolWarnings,
      betas
    };
  }
  const type = toolChoice.type;
  switch (type) {
    case "auto":
      return {
        tools: declaredTools,
        toolChoice: {
          type: "auto",
          disable_parallel_tool_use: disableParallelToolUse
        },
        toolWarnings,
        betas
      };
    case "required":
      if (rejectsForcedToolUse) {
        toolWarnings.push({
          type: "unsupported",
          feature: "toolChoice",
          details: `toolChoice 'required' is not supported with this model or thinking configuration. Using 'auto' instead. Instruct the model to use a tool in the prompt and verify that a tool call was made.`
        });
        return {
          tools: declaredTools,
          toolChoice: {
            type: "auto",
            disable_parallel_tool_use: disableParallelToolUse
          },
          toolWarnings,
          betas
        };
      }
      return {
        tools: declaredTools,
        toolChoice: {
          type: "any",
          disable_parallel_tool_use: disableParallelToolUse
        },
        toolWarnings,
        betas
      };
    case "none":
      return {
        tools: declaredTools,
        toolChoice: { type: "none" },
        toolWarnings,
        betas
      };
    case "tool":
      if (rejectsForcedToolUse) {
        toolWarnings.push({
          type: "unsupported",
          feature: "toolChoice",
          details: `toolChoice 'tool' is not supported with this model or thinking configuration. Only the '${toolChoice.toolName}' tool is sent with 'auto' tool choice. Instruct the model to use the tool in the prompt and verify that a tool call was made.`
        });
        return {
          tools: declaredTools == null ? void 0 : declaredTools.filter(
            (tool) => "name" in tool && tool.name === toolChoice.toolName
          ),
          toolChoice: {
            type: "auto",
            disable_parallel_tool_use: disableParallelToolUse
          },
          toolWarnings,
          betas
        };
      }
      return {
        tools: declaredTools,
        toolChoice: {
          type: "tool",
          name: toolChoice.toolName,
          disable_parallel_tool_use: disableParallelToolUse
        },
        toolWarnings,
        betas
      };
    default: {
      const _exhaustiveCheck = type;
      throw new UnsupportedFunctionalityError({
        functionality: `tool choice type: ${_exhaustiveCheck}`
      });
    }
  }
}
function convertAnthropicMessagesUsage({
  usage,
  rawUsage
}) {
  var _a, _b, _c, _d, _e;
  const cacheCreationTokens = (_a = usage.cache_creation_input_tokens) != null ? _a : 0;
  const cacheReadTokens = (_b = usage.cache_read_input_tokens) != null ? _b : 0;
  const reasoningTokens = (_d = (_c = usage.output_tokens_details) == null ? void 0 : _c.thinking_tokens) != null ? _d : void 0;
  let inputTokens;
  let outputTokens;
  const servedByFallback = (_e = usage.iterations) == null ? void 0 : _e.some(
    (iter) => iter.type === "fallback_message"
  );
  if (usage.iterations && usage.iterations.length > 0 && !servedByFallback) {
    const executorIterations = usage.iterations.filter(
      (iter) => iter.type === "compaction" || iter.type === "message"
    );
    if (executorIterations.length > 0) {
      const totals = executorIterations.reduce(
        (acc, iter) => ({
          input: acc.input + iter.input_tokens,
          output: acc.output + iter.output_tokens
        }),
        { input: 0, output: 0 }
      );
      inputTokens = totals.input;
      outputTokens = totals.output;
    } else {
      inputTokens = usage.input_tokens;
      outputTokens = usage.output_tokens;
    }
  } else {
    inputTokens = usage.input_tokens;
    outputTokens = usage.output_tokens;
  }
  return {
    inputTokens: {
      total: inputTokens + cacheCreationTokens + cacheReadTokens,
      noCache: inputTokens,
      cacheRead: cacheReadTokens,
      cacheWrite: cacheCreationTokens
    },
    outputTokens: {
      total: outputTokens,
      text: reasoningTokens == null ? void 0 : outputTokens - reasoningTokens,
      reasoning: reasoningTokens
    },
    raw: rawUsage != null ? rawUsage : usage
  };
}
var codeExecution_20250522OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      type: external_exports.literal("code_execution_result"),
      stdout: external_exports.string(),
      stderr: external_exports.string(),
      return_code: external_exports.number(),
      content: external_exports.array(
        external_exports.object({
          type: external_exports.literal("code_execution_output"),
          file_id: external_exports.string()
        })
      ).optional().default([])
    })
  )
);
var codeExecution_20250522InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      code: external_exports.string()
    })
  )
);
var factory7 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.code_execution_20250522",
  inputSchema: codeExecution_20250522InputSchema,
  outputSchema: codeExecution_20250522OutputSchema
});
var codeExecution_20250522 = (args = {}) => {
  return factory7(args);
};
var codeExecution_20250825OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      external_exports.object({
        type: external_exports.literal("code_execution_result"),
        stdout: external_exports.string(),
        stderr: external_exports.string(),
        return_code: external_exports.number(),
        content: external_exports.array(
          external_exports.object({
            type: external_exports.literal("code_execution_output"),
            file_id: external_exports.string()
          })
        ).optional().default([])
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution_result"),
        content: external_exports.array(
          external_exports.object({
            type: external_exports.literal("bash_code_execution_output"),
            file_id: external_exports.string()
          })
        ),
        stdout: external_exports.string(),
        stderr: external_exports.string(),
        return_code: external_exports.number()
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution_tool_result_error"),
        error_code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_tool_result_error"),
        error_code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_view_result"),
        content: external_exports.string(),
        file_type: external_exports.string(),
        num_lines: external_exports.number().nullable(),
        start_line: external_exports.number().nullable(),
        total_lines: external_exports.number().nullable()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_create_result"),
        is_file_update: external_exports.boolean()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_str_replace_result"),
        lines: external_exports.array(external_exports.string()).nullable(),
        new_lines: external_exports.number().nullable(),
        new_start: external_exports.number().nullable(),
        old_lines: external_exports.number().nullable(),
        old_start: external_exports.number().nullable()
      })
    ])
  )
);
var codeExecution_20250825InputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      // Programmatic tool calling format (mapped from { code } by AI SDK)
      external_exports.object({
        type: external_exports.literal("programmatic-tool-call"),
        code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution"),
        command: external_exports.string()
      }),
      external_exports.discriminatedUnion("command", [
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("view"),
          path: external_exports.string()
        }),
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("create"),
          path: external_exports.string(),
          file_text: external_exports.string().nullish()
        }),
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("str_replace"),
          path: external_exports.string(),
          old_str: external_exports.string(),
          new_str: external_exports.string()
        })
      ])
    ])
  )
);
var factory8 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.code_execution_20250825",
  inputSchema: codeExecution_20250825InputSchema,
  outputSchema: codeExecution_20250825OutputSchema,
  // Programmatic tool calling: tool results may be deferred to a later turn
  // when code execution triggers a client-executed tool that needs to be
  // resolved before the code execution result can be returned.
  supportsDeferredResults: true
});
var codeExecution_20250825 = (args = {}) => {
  return factory8(args);
};
var codeExecution_20260120OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      external_exports.object({
        type: external_exports.literal("code_execution_result"),
        stdout: external_exports.string(),
        stderr: external_exports.string(),
        return_code: external_exports.number(),
        content: external_exports.array(
          external_exports.object({
            type: external_exports.literal("code_execution_output"),
            file_id: external_exports.string()
          })
        ).optional().default([])
      }),
      external_exports.object({
        type: external_exports.literal("encrypted_code_execution_result"),
        encrypted_stdout: external_exports.string(),
        stderr: external_exports.string(),
        return_code: external_exports.number(),
        content: external_exports.array(
          external_exports.object({
            type: external_exports.literal("code_execution_output"),
            file_id: external_exports.string()
          })
        ).optional().default([])
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution_result"),
        content: external_exports.array(
          external_exports.object({
            type: external_exports.literal("bash_code_execution_output"),
            file_id: external_exports.string()
          })
        ),
        stdout: external_exports.string(),
        stderr: external_exports.string(),
        return_code: external_exports.number()
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution_tool_result_error"),
        error_code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_tool_result_error"),
        error_code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_view_result"),
        content: external_exports.string(),
        file_type: external_exports.string(),
        num_lines: external_exports.number().nullable(),
        start_line: external_exports.number().nullable(),
        total_lines: external_exports.number().nullable()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_create_result"),
        is_file_update: external_exports.boolean()
      }),
      external_exports.object({
        type: external_exports.literal("text_editor_code_execution_str_replace_result"),
        lines: external_exports.array(external_exports.string()).nullable(),
        new_lines: external_exports.number().nullable(),
        new_start: external_exports.number().nullable(),
        old_lines: external_exports.number().nullable(),
        old_start: external_exports.number().nullable()
      })
    ])
  )
);
var codeExecution_20260120InputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("type", [
      external_exports.object({
        type: external_exports.literal("programmatic-tool-call"),
        code: external_exports.string()
      }),
      external_exports.object({
        type: external_exports.literal("bash_code_execution"),
        command: external_exports.string()
      }),
      external_exports.discriminatedUnion("command", [
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("view"),
          path: external_exports.string()
        }),
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("create"),
          path: external_exports.string(),
          file_text: external_exports.string().nullish()
        }),
        external_exports.object({
          type: external_exports.literal("text_editor_code_execution"),
          command: external_exports.literal("str_replace"),
          path: external_exports.string(),
          old_str: external_exports.string(),
          new_str: external_exports.string()
        })
      ])
    ])
  )
);
var factory9 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.code_execution_20260120",
  inputSchema: codeExecution_20260120InputSchema,
  outputSchema: codeExecution_20260120OutputSchema,
  supportsDeferredResults: true
});
var codeExecution_20260120 = (args = {}) => {
  return factory9(args);
};
var toolSearchRegex_20251119OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.array(
      external_exports.object({
        type: external_exports.literal("tool_reference"),
        toolName: external_exports.string()
      })
    )
  )
);
var toolSearchRegex_20251119InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      /**
       * A regex pattern to search for tools.
       * Uses Python re.search() syntax. Maximum 200 characters.
       *
       * Examples:
       * - "weather" - matches tool names/descriptions containing "weather"
       * - "get_.*_data" - matches tools like get_user_data, get_weather_data
       * - "database.*query|query.*database" - OR patterns for flexibility
       * - "(?i)slack" - case-insensitive search
       */
      pattern: external_exports.string(),
      /**
       * Maximum number of tools to return. Optional.
       */
      limit: external_exports.number().optional()
    })
  )
);
var factory10 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.tool_search_regex_20251119",
  inputSchema: toolSearchRegex_20251119InputSchema,
  outputSchema: toolSearchRegex_20251119OutputSchema,
  supportsDeferredResults: true
});
var toolSearchRegex_20251119 = (args = {}) => {
  return factory10(args);
};
function convertToString(data) {
  if (typeof data === "string") {
    return new TextDecoder().decode(convertBase64ToUint8Array(data));
  }
  if (data instanceof Uint8Array) {
    return new TextDecoder().decode(data);
  }
  if (data instanceof URL) {
    throw new UnsupportedFunctionalityError({
      functionality: "URL-based text documents are not supported for citations"
    });
  }
  throw new UnsupportedFunctionalityError({
    functionality: `unsupported data type for text documents: ${typeof data}`
  });
}
function isUrlData(data) {
  return data instanceof URL || isUrlString(data);
}
function isUrlString(data) {
  return typeof data === "string" && /^https?:\/\//i.test(data);
}
function getUrlString(data) {
  return data instanceof URL ? data.toString() : data;
}
async function extractErrorValue(value) {
  if (typeof value === "string") {
    const result = await safeParseJSON({ text: value });
    if (result.success && typeof result.value === "object" && result.value !== null) {
      return result.value;
    }
    return {
      errorCode: "unavailable"
    };
  }
  if (typeof value === "object" && value !== null) {
    return value;
  }
  return {};
}
function isComputerTool(tool) {
  return tool.type === "provider" && tool.id.startsWith("anthropic.computer_");
}
async function getInlineToolsFromPrompt(prompt) {
  var _a;
  const inlineTools = [];
  for (const message of prompt) {
    if (message.role !== "system" || message.providerOptions == null) {
      continue;
    }
    const options = await parseProviderOptions({
      provider: "anthropic",
      providerOptions: message.providerOptions,
      schema: anthropicSystemMessageProviderOptions
    });
    for (const toolChange of (_a = options == null ? void 0 : options.toolChanges) != null ? _a : []) {
      if ("tool" in toolChange) {
        const tool = toolChange.tool;
        if (!isComputerTool(tool)) {
          inlineTools.push(tool);
        }
      }
    }
  }
  return inlineTools;
}
async function convertToAnthropicMessagesPrompt({
  prompt,
  sendReasoning,
  warnings,
  cacheControlValidator,
  toolNameMapping,
  toolsetNames = {},
  convertMediaPart,
  convertInlineTool
}) {
  var _a, _b, _c, _d, _e, _f, _g, _h, _i, _j, _k, _l, _m, _n, _o, _p, _q, _r, _s, _t, _u, _v;
  const betas = /* @__PURE__ */ new Set();
  const blocks = groupIntoBlocks(prompt);
  const validator = cacheControlValidator || new CacheControlValidator();
  let system = void 0;
  const messages = [];
  let lastUserMessageIndex = -1;
  async function shouldEnableCitations(providerMetadata) {
    var _a2, _b2;
    const anthropicOptions = await parseProviderOptions({
      provider: "anthropic",
      providerOptions: providerMetadata,
      schema: anthropicFilePartProviderOptions
    });
    return (_b2 = (_a2 = anthropicOptions == null ? void 0 : anthropicOptions.citations) == null ? void 0 : _a2.enabled) != null ? _b2 : false;
  }
  async function getDocumentMetadata(providerMetadata) {
    const anthropicOptions = await parseProviderOptions({
      provider: "anthropic",
      providerOptions: providerMetadata,
      schema: anthropicFilePartProviderOptions
    });
    return {
      title: anthropicOptions == null ? void 0 : anthropicOptions.title,
      context: anthropicOptions == null ? void 0 : anthropicOptions.context
    };
  }
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    const isLastBlock = i === blocks.length - 1;
    const type = block.type;
    switch (type) {
      case "system": {
        const systemMessages = [];
        let toolChangeCount = 0;
        let hasInlineToolDefinition = false;
        let hasMidConversationOptions = false;
        for (const { content: text, providerOptions } of block.messages) {
          const systemMessageOptions = await parseProviderOptions({
            provider: "anthropic",
            providerOptions,
            schema: anthropicSystemMessageProviderOptions
          });
          const toolChanges = (_a = systemMessageOptions == null ? void 0 : systemMessageOptions.toolChanges) != null ? _a : [];
          const clearAt = systemMessageOptions == null ? void 0 : systemMessageOptions.clearAt;
          const effort = systemMessageOptions == null ? void 0 : systemMessageOptions.effort;
          const content = [];
          if (text !== "" || toolChanges.length === 0 && clearAt == null && effort == null) {
            content.push({
              type: "text",
              text,
              cache_control: validator.getCacheControl(providerOptions, {
                type: "system message",
                canCache: true
              })
            });
          }
          for (const toolChange of toolChanges) {
            if ("tool" in toolChange) {
              if (convertInlineTool == null) {
                throw new UnsupportedFunctionalityError({
                  functionality: "tool additions by value in mid-conversation tool changes"
                });
              }
              const tool = toolChange.tool;
              if (isComputerTool(tool)) {
                warnings.push({
                  type: "other",
                  message: `The tool '${tool.name}' cannot be added by value in a tool change. Declare it in the tools option and add it by reference with toolName. The tool change has been ignored.`
                });
                continue;
              }
              const {
                definition,
                warnings: toolWarnings,
                betas: toolBetas
              } = await convertInlineTool(tool);
              warnings.push(...toolWarnings);
              for (const beta of toolBetas) {
                betas.add(beta);
              }
              if (definition == null) {
                continue;
              }
              content.push({
                type: "tool_addition",
                tool: { type: "tool_definition", definition }
              });
              toolChangeCount++;
              hasInlineToolDefinition = true;
              continue;
            }
            toolChangeCount++;
            content.push({
              type: toolChange.type,
              tool: {
                type: "tool_reference",
                name: toolNameMapping.toProviderToolName(toolChange.toolName)
              }
            });
          }
          if (content.length === 0 && clearAt == null && effort == null) {
            continue;
          }
          hasMidConversationOptions || (hasMidConversationOptions = clearAt != null || effort != null);
          systemMessages.push({
            role: "system",
            content,
            ...clearAt != null && { clear_at: clearAt },
            ...effort != null && { output_config: { effort } }
          });
        }
        if (i === 0 || system == null && toolChangeCount === 0 && !hasMidConversationOptions) {
          if (toolChangeCount > 0) {
            warnings.push({
              type: "other",
              message: "tool changes on the initial system message are not supported by Anthropic. Configure the initial tool set via the tools option instead. The tool changes have been ignored."
            });
          }
          for (const message of systemMessages) {
            if (message.content.length === 0 && message.clear_at == null && message.output_config != null) {
              messages.push(message);
              betas.add("mid-conversation-output-config-2026-07-01");
            } else if (message.clear_at != null || message.output_config != null) {
              warnings.push({
                type: "other",
                message: "clearAt and effort on this initial system message are not supported by Anthropic. Use a separate effort-only system message with empty content to set effort. These options have been ignored."
              });
            }
          }
          system = systemMessages.flatMap(
            (message) => message.content.filter(
              (part) => part.type === "text"
            )
          );
        } else {
          messages.push(...systemMessages);
          betas.add("mid-conversation-system-2026-04-07");
          if (hasInlineToolDefinition) {
            betas.add("inline-tools-2026-09-15");
          } else if (toolChangeCount > 0) {
            betas.add("mid-conversation-tool-changes-2026-07-01");
          }
          if (systemMessages.some((message) => message.clear_at != null)) {
            betas.add("mid-conversation-system-clear-at-2026-08-21");
          }
          if (systemMessages.some((message) => message.output_config != null)) {
            betas.add("mid-conversation-output-config-2026-07-01");
          }
        }
        break;
      }
      case "user": {
        const anthropicContent = [];
        for (const message of block.messages) {
          const { role, content } = message;
          switch (role) {
            case "user": {
              if (content.length > 0) {
                lastUserMessageIndex = messages.length;
              }
              for (let j = 0; j < content.length; j++) {
                const part = content[j];
                const isLastPart = j === content.length - 1;
                const cacheControl = (_b = validator.getCacheControl(part.providerOptions, {
                  type: "user message part",
                  canCache: true
                })) != null ? _b : isLastPart ? validator.getCacheControl(message.providerOptions, {
                  type: "user message",
                  canCache: true
                }) : void 0;
                switch (part.type) {
                  case "text": {
                    anthropicContent.push({
                      type: "text",
                      text: part.text,
                      cache_control: cacheControl
                    });
                    break;
                  }
                  case "file": {
                    const customContent = await (convertMediaPart == null ? void 0 : convertMediaPart(part));
                    if (customContent != null) {
                      anthropicContent.push({
                        ...customContent,
                        cache_control: cacheControl
                      });
                      break;
                    }
                    if (part.mediaType.startsWith("image/")) {
                      anthropicContent.push({
                        type: "image",
                        source: isUrlData(part.data) ? {
                          type: "url",
                          url: getUrlString(part.data)
                        } : {
                          type: "base64",
                          media_type: part.mediaType === "image/*" ? "image/jpeg" : part.mediaType,
                          data: convertToBase64(part.data)
                        },
                        cache_control: cacheControl
                      });
                    } else if (part.mediaType === "application/pdf") {
                      betas.add("pdfs-2024-09-25");
                      const enableCitations = await shouldEnableCitations(
                        part.providerOptions
                      );
                      const metadata = await getDocumentMetadata(
                        part.providerOptions
                      );
                      anthropicContent.push({
                        type: "document",
                        source: isUrlData(part.data) ? {
                          type: "url",
                          url: getUrlString(part.data)
                        } : {
                          type: "base64",
                          media_type: "application/pdf",
                          data: convertToBase64(part.data)
                        },
                        title: (_c = metadata.title) != null ? _c : part.filename,
                        ...metadata.context && { context: metadata.context },
                        ...enableCitations && {
                          citations: { enabled: true }
                        },
                        cache_control: cacheControl
                      });
                    } else if (part.mediaType === "text/plain") {
                      const enableCitations = await shouldEnableCitations(
                        part.providerOptions
                      );
                      const metadata = await getDocumentMetadata(
                        part.providerOptions
                      );
                      anthropicContent.push({
                        type: "document",
                        source: isUrlData(part.data) ? {
                          type: "url",
                          url: getUrlString(part.data)
                        } : {
                          type: "text",
                          media_type: "text/plain",
                          data: convertToString(part.data)
                        },
                        title: (_d = metadata.title) != null ? _d : part.filename,
                        ...metadata.context && { context: metadata.context },
                        ...enableCitations && {
                          citations: { enabled: true }
                        },
                        cache_control: cacheControl
                      });
                    } else {
                      throw new UnsupportedFunctionalityError({
                        functionality: `media type: ${part.mediaType}`
                      });
                    }
                    break;
                  }
                }
              }
              break;
            }
            case "tool": {
              for (let i2 = 0; i2 < content.length; i2++) {
                const part = content[i2];
                if (part.type === "tool-approval-response") {
                  continue;
                }
                const output = part.output;
                const outputProviderOptions = "providerOptions" in output ? output.providerOptions : output.type === "content" ? (_e = output.value.find(
                  (contentPart) => contentPart.providerOptions != null
                )) == null ? void 0 : _e.providerOptions : void 0;
                const isLastPart = i2 === content.length - 1;
                const cacheControl = (_g = (_f = validator.getCacheControl(part.providerOptions, {
                  type: "tool result part",
                  canCache: true
                })) != null ? _f : validator.getCacheControl(outputProviderOptions, {
                  type: "tool result output",
                  canCache: true
                })) != null ? _g : isLastPart ? validator.getCacheControl(message.providerOptions, {
                  type: "tool result message",
                  canCache: true
                }) : void 0;
                let contentValue;
                switch (output.type) {
                  case "content":
                    contentValue = output.value.map((contentPart) => {
                      var _a2;
                      switch (contentPart.type) {
                        case "text":
                          return {
                            type: "text",
                            text: contentPart.text
                          };
                        case "image-data": {
                          return {
                            type: "image",
                            source: {
                              type: "base64",
                              media_type: contentPart.mediaType,
                              data: contentPart.data
                            }
                          };
                        }
                        case "image-url": {
                          return {
                            type: "image",
                            source: {
                              type: "url",
                              url: contentPart.url
                            }
                          };
                        }
                        case "file-url": {
                          return {
                            type: "document",
                            source: {
                              type: "url",
                              url: contentPart.url
                            }
                          };
                        }
                        case "file-data": {
                          if (contentPart.mediaType === "application/pdf") {
                            betas.add("pdfs-2024-09-25");
                            return {
                              type: "document",
                              source: {
                                type: "base64",
                                media_type: contentPart.mediaType,
                                data: contentPart.data
                              }
                            };
                          }
                          warnings.push({
                            type: "other",
                            message: `unsupported tool content part type: ${contentPart.type} with media type: ${contentPart.mediaType}`
                          });
                          return void 0;
                        }
                        case "custom": {
                          const anthropicOptions = (_a2 = contentPart.providerOptions) == null ? void 0 : _a2.anthropic;
                          if ((anthropicOptions == null ? void 0 : anthropicOptions.type) === "tool-reference") {
                            return {
                              type: "tool_reference",
                              tool_name: anthropicOptions.toolName
                            };
                          }
                          warnings.push({
                            type: "other",
                            message: `unsupported custom tool content part`
                          });
                          return void 0;
                        }
                        default: {
                          warnings.push({
                            type: "other",
                            message: `unsupported tool content part type: ${contentPart.type}`
                          });
                          return void 0;
                        }
                      }
                    }).filter(isNonNullable);
                    break;
                  case "text":
                  case "error-text":
                    contentValue = output.value;
                    break;
                  case "execution-denied":
                    contentValue = (_h = output.reason) != null ? _h : "Tool call execution denied.";
                    break;
                  case "json":
                  case "error-json":
                  default:
                    contentValue = stringifyWithBigIntAndCycles(output.value);
                    break;
                }
                const toolsetName = getAnthropicToolsetName({
                  toolName: part.toolName,
                  providerOptions: part.providerOptions,
                  toolsetNames
                });
                anthropicContent.push({
                  type: "tool_result",
                  tool_use_id: part.toolCallId,
                  ...toolsetName != null && { toolset_name: toolsetName },
                  content: contentValue,
                  is_error: output.type === "error-text" || output.type === "error-json" ? true : void 0,
                  cache_control: cacheControl
                });
              }
              break;
            }
            default: {
              const _exhaustiveCheck = role;
              throw new Error(`Unsupported role: ${_exhaustiveCheck}`);
            }
          }
        }
        messages.push({ role: "user", content: anthropicContent });
        break;
      }
      case "assistant": {
        const anthropicContent = [];
        const mcpToolUseIds = /* @__PURE__ */ new Set();
        for (let j = 0; j < block.messages.length; j++) {
          const message = block.messages[j];
          const isLastMessage = j === block.messages.length - 1;
          const { content } = message;
          for (let k = 0; k < content.length; k++) {
            const part = content[k];
            const isLastContentPart = k === content.length - 1;
            const cacheControl = (_i = validator.getCacheControl(part.providerOptions, {
              type: "assistant message part",
              canCache: true
            })) != null ? _i : isLastContentPart ? validator.getCacheControl(message.providerOptions, {
              type: "assistant message",
              canCache: true
            }) : void 0;
            switch (part.type) {
              case "text": {
                const textMetadata = (_j = part.providerOptions) == null ? void 0 : _j.anthropic;
                if ((textMetadata == null ? void 0 : textMetadata.type) === "compaction") {
                  anthropicContent.push({
                    type: "compaction",
                    content: part.text,
                    cache_control: cacheControl
                  });
                } else {
                  anthropicContent.push({
                    type: "text",
                    text: (
                      // trim the last text part if it's the last message in the block
                      // because Anthropic does not allow trailing whitespace
                      // in pre-filled assistant responses
                      isLastBlock && isLastMessage && isLastContentPart ? part.text.trim() : part.text
                    ),
                    ...(textMetadata == null ? void 0 : textMetadata.citations) != null && {
                      citations: textMetadata.citations
                    },
                    cache_control: cacheControl
                  });
                }
                break;
              }
              case "reasoning": {
                if (sendReasoning) {
                  const reasoningMetadata = await parseProviderOptions({
                    provider: "anthropic",
                    providerOptions: part.providerOptions,
                    schema: anthropicReasoningMetadataSchema
                  });
                  if (reasoningMetadata != null) {
                    if (reasoningMetadata.signature != null) {
                      validator.getCacheControl(part.providerOptions, {
                        type: "thinking block",
                        canCache: false
                      });
                      anthropicContent.push({
                        type: "thinking",
                        thinking: part.text,
                        signature: reasoningMetadata.signature
                      });
                    } else if (reasoningMetadata.redactedData != null) {
                      validator.getCacheControl(part.providerOptions, {
                        type: "redacted thinking block",
                        canCache: false
                      });
                      anthropicContent.push({
                        type: "redacted_thinking",
                        data: reasoningMetadata.redactedData
                      });
                    } else {
                      warnings.push({
                        type: "other",
                        message: "unsupported reasoning metadata"
                      });
                    }
                  } else {
                    warnings.push({
                      type: "other",
                      message: "unsupported reasoning metadata"
                    });
                  }
                } else {
                  warnings.push({
                    type: "other",
                    message: "sending reasoning content is disabled for this model"
                  });
                }
                break;
              }
              case "tool-call": {
                const caller = getAnthropicCaller(part.providerOptions);
                if (part.providerExecuted) {
                  const providerToolName = toolNameMapping.toProviderToolName(
                    part.toolName
                  );
                  const isMcpToolUse = ((_l = (_k = part.providerOptions) == null ? void 0 : _k.anthropic) == null ? void 0 : _l.type) === "mcp-tool-use";
                  if (isMcpToolUse) {
                    mcpToolUseIds.add(part.toolCallId);
                    const serverName = (_n = (_m = part.providerOptions) == null ? void 0 : _m.anthropic) == null ? void 0 : _n.serverName;
                    if (serverName == null || typeof serverName !== "string") {
                      warnings.push({
                        type: "other",
                        message: "mcp tool use server name is required and must be a string"
                      });
                      break;
                    }
                    anthropicContent.push({
                      type: "mcp_tool_use",
                      id: part.toolCallId,
                      name: part.toolName,
                      input: part.input,
                      server_name: serverName,
                      cache_control: cacheControl
                    });
                  } else if (
                    // code execution 20250825:
                    providerToolName === "code_execution" && part.input != null && typeof part.input === "object" && "type" in part.input && typeof part.input.type === "string" && (part.input.type === "bash_code_execution" || part.input.type === "text_editor_code_execution")
                  ) {
                    const { type: subtoolName, ...input } = part.input;
                    anthropicContent.push({
                      type: "server_tool_use",
                      id: part.toolCallId,
                      name: subtoolName,
                      // map back to subtool name
                      input,
                      ...caller && { caller },
                      cache_control: cacheControl
                    });
                  } else if (
                    // code execution 20250825 programmatic tool calling:
                    // Strip the fake 'programmatic-tool-call' type before sending to Anthropic
                    providerToolName === "code_execution" && part.input != null && typeof part.input === "object" && "type" in part.input && part.input.type === "programmatic-tool-call"
                  ) {
                    const { type: _, ...inputWithoutType } = part.input;
                    anthropicContent.push({
                      type: "server_tool_use",
                      id: part.toolCallId,
                      name: "code_execution",
                      input: inputWithoutType,
                      ...caller && { caller },
                      cache_control: cacheControl
                    });
                  } else {
                    if (providerToolName === "code_execution" || // code execution 20250522
                    providerToolName === "web_fetch" || providerToolName === "web_search") {
                      anthropicContent.push({
                        type: "server_tool_use",
                        id: part.toolCallId,
                        name: providerToolName,
                        input: part.input,
                        ...caller && { caller },
                        cache_control: cacheControl
                      });
                    } else if (providerToolName === "tool_search_tool_regex" || providerToolName === "tool_search_tool_bm25") {
                      anthropicContent.push({
                        type: "server_tool_use",
                        id: part.toolCallId,
                        name: providerToolName,
                        input: part.input,
                        ...caller && { caller },
                        cache_control: cacheControl
                      });
                    } else if (providerToolName === "advisor") {
                      anthropicContent.push({
                        type: "server_tool_use",
                        id: part.toolCallId,
                        name: "advisor",
                        input: {},
                        ...caller && { caller },
                        cache_control: cacheControl
                      });
                    } else {
                      warnings.push({
                        type: "other",
                        message: `provider executed tool call for tool ${part.toolName} is not supported`
                      });
                    }
                  }
                  break;
                }
                const toolsetName = getAnthropicToolsetName({
                  toolName: part.toolName,
                  providerOptions: part.providerOptions,
                  toolsetNames
                });
                if (toolsetName != null) {
                  const { action, ...memberInput } = typeof part.input === "object" && part.input !== null && !Array.isArray(part.input) ? part.input : {};
                  if (typeof action !== "string") {
                    warnings.push({
                      type: "other",
                      message: `toolset tool call for tool ${part.toolName} is missing the action`
                    });
                    break;
                  }
                  anthropicContent.push({
                    type: "tool_use",
                    id: part.toolCallId,
                    name: action,
                    toolset_name: toolsetName,
                    input: memberInput,
                    ...caller && { caller },
                    cache_control: cacheControl
                  });
                  break;
                }
                anthropicContent.push({
                  type: "tool_use",
                  id: part.toolCallId,
                  name: part.toolName,
                  input: parseToolCallInput(part.input),
                  ...caller && { caller },
                  cache_control: cacheControl
                });
                break;
              }
              case "tool-result": {
                const providerToolName = toolNameMapping.toProviderToolName(
                  part.toolName
                );
                const caller = getAnthropicCaller(part.providerOptions);
                if (mcpToolUseIds.has(part.toolCallId)) {
                  const output = part.output;
                  if (output.type !== "json" && output.type !== "error-json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  anthropicContent.push({
                    type: "mcp_tool_result",
                    tool_use_id: part.toolCallId,
                    is_error: output.type === "error-json",
                    content: output.value,
                    cache_control: cacheControl
                  });
                } else if (providerToolName === "code_execution") {
                  const output = part.output;
                  if (output.type === "error-text" || output.type === "error-json") {
                    let errorInfo = {};
                    try {
                      if (typeof output.value === "string") {
                        errorInfo = secureJsonParse(output.value);
                      } else if (typeof output.value === "object" && output.value !== null) {
                        errorInfo = output.value;
                      }
                    } catch (e) {
                    }
                    if (errorInfo.type === "code_execution_tool_result_error") {
                      anthropicContent.push({
                        type: "code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        content: {
                          type: "code_execution_tool_result_error",
                          error_code: (_o = errorInfo.errorCode) != null ? _o : "unknown"
                        },
                        cache_control: cacheControl
                      });
                    } else {
                      anthropicContent.push({
                        type: "bash_code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        cache_control: cacheControl,
                        content: {
                          type: "bash_code_execution_tool_result_error",
                          error_code: (_p = errorInfo.errorCode) != null ? _p : "unknown"
                        }
                      });
                    }
                    break;
                  }
                  if (output.type !== "json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  if (output.value == null || typeof output.value !== "object" || !("type" in output.value) || typeof output.value.type !== "string") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output value is not a valid code execution result for tool ${part.toolName}`
                    });
                    break;
                  }
                  if (output.value.type === "code_execution_result") {
                    const codeExecutionOutput = await validateTypes({
                      value: output.value,
                      schema: codeExecution_20250522OutputSchema
                    });
                    anthropicContent.push({
                      type: "code_execution_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: codeExecutionOutput.type,
                        stdout: codeExecutionOutput.stdout,
                        stderr: codeExecutionOutput.stderr,
                        return_code: codeExecutionOutput.return_code,
                        content: (_q = codeExecutionOutput.content) != null ? _q : []
                      },
                      cache_control: cacheControl
                    });
                  } else if (output.value.type === "encrypted_code_execution_result") {
                    const codeExecutionOutput = await validateTypes({
                      value: output.value,
                      schema: codeExecution_20260120OutputSchema
                    });
                    if (codeExecutionOutput.type === "encrypted_code_execution_result") {
                      anthropicContent.push({
                        type: "code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        content: {
                          type: codeExecutionOutput.type,
                          encrypted_stdout: codeExecutionOutput.encrypted_stdout,
                          stderr: codeExecutionOutput.stderr,
                          return_code: codeExecutionOutput.return_code,
                          content: (_r = codeExecutionOutput.content) != null ? _r : []
                        },
                        cache_control: cacheControl
                      });
                    }
                  } else {
                    const codeExecutionOutput = await validateTypes({
                      value: output.value,
                      schema: codeExecution_20250825OutputSchema
                    });
                    if (codeExecutionOutput.type === "code_execution_result") {
                      anthropicContent.push({
                        type: "code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        content: {
                          type: codeExecutionOutput.type,
                          stdout: codeExecutionOutput.stdout,
                          stderr: codeExecutionOutput.stderr,
                          return_code: codeExecutionOutput.return_code,
                          content: (_s = codeExecutionOutput.content) != null ? _s : []
                        },
                        cache_control: cacheControl
                      });
                    } else if (codeExecutionOutput.type === "bash_code_execution_result" || codeExecutionOutput.type === "bash_code_execution_tool_result_error") {
                      anthropicContent.push({
                        type: "bash_code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        cache_control: cacheControl,
                        // Prompt caching requires stable key ordering:
                        // https://platform.claude.com/docs/en/build-with-claude/prompt-caching#troubleshooting-common-issues
                        content: codeExecutionOutput.type === "bash_code_execution_result" ? {
                          type: codeExecutionOutput.type,
                          stdout: codeExecutionOutput.stdout,
                          stderr: codeExecutionOutput.stderr,
                          return_code: codeExecutionOutput.return_code,
                          content: codeExecutionOutput.content
                        } : codeExecutionOutput
                      });
                    } else {
                      anthropicContent.push({
                        type: "text_editor_code_execution_tool_result",
                        tool_use_id: part.toolCallId,
                        cache_control: cacheControl,
                        content: codeExecutionOutput
                      });
                    }
                  }
                  break;
                }
                if (providerToolName === "web_fetch") {
                  const output = part.output;
                  if (output.type === "error-json") {
                    anthropicContent.push({
                      type: "web_fetch_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "web_fetch_tool_result_error",
                        error_code: (_t = (await extractErrorValue(output.value)).errorCode) != null ? _t : "unavailable"
                      },
                      ...caller && { caller },
                      cache_control: cacheControl
                    });
                    break;
                  }
                  if (output.type !== "json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  const webFetchOutput = await validateTypes({
                    value: output.value,
                    schema: webFetch_20250910OutputSchema
                  });
                  anthropicContent.push({
                    type: "web_fetch_tool_result",
                    tool_use_id: part.toolCallId,
                    content: {
                      type: "web_fetch_result",
                      url: webFetchOutput.url,
                      retrieved_at: webFetchOutput.retrievedAt,
                      content: {
                        type: "document",
                        title: webFetchOutput.content.title,
                        citations: webFetchOutput.content.citations,
                        source: {
                          type: webFetchOutput.content.source.type,
                          media_type: webFetchOutput.content.source.mediaType,
                          data: webFetchOutput.content.source.data
                        }
                      }
                    },
                    ...caller && { caller },
                    cache_control: cacheControl
                  });
                  break;
                }
                if (providerToolName === "web_search") {
                  const output = part.output;
                  if (output.type === "error-json") {
                    anthropicContent.push({
                      type: "web_search_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "web_search_tool_result_error",
                        error_code: (_u = (await extractErrorValue(output.value)).errorCode) != null ? _u : "unavailable"
                      },
                      ...caller && { caller },
                      cache_control: cacheControl
                    });
                    break;
                  }
                  if (output.type !== "json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  const webSearchOutput = await validateTypes({
                    value: output.value,
                    schema: webSearch_20250305OutputSchema
                  });
                  anthropicContent.push({
                    type: "web_search_tool_result",
                    tool_use_id: part.toolCallId,
                    content: webSearchOutput.map((result) => ({
                      url: result.url,
                      title: result.title,
                      page_age: result.pageAge,
                      encrypted_content: result.encryptedContent,
                      type: result.type
                    })),
                    ...caller && { caller },
                    cache_control: cacheControl
                  });
                  break;
                }
                if (providerToolName === "tool_search_tool_regex" || providerToolName === "tool_search_tool_bm25") {
                  const output = part.output;
                  if (output.type === "error-json" || output.type === "json" && output.value != null && typeof output.value === "object" && !Array.isArray(output.value) && "type" in output.value && output.value.type === "tool_search_tool_result_error") {
                    anthropicContent.push({
                      type: "tool_search_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "tool_search_tool_result_error",
                        error_code: (_v = (await extractErrorValue(output.value)).errorCode) != null ? _v : "unavailable"
                      },
                      cache_control: cacheControl
                    });
                    break;
                  }
                  if (output.type !== "json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  const toolSearchOutput = await validateTypes({
                    value: output.value,
                    schema: toolSearchRegex_20251119OutputSchema
                  });
                  const toolReferences = toolSearchOutput.map((ref) => ({
                    type: "tool_reference",
                    tool_name: ref.toolName
                  }));
                  anthropicContent.push({
                    type: "tool_search_tool_result",
                    tool_use_id: part.toolCallId,
                    content: {
                      type: "tool_search_tool_search_result",
                      tool_references: toolReferences
                    },
                    cache_control: cacheControl
                  });
                  break;
                }
                if (providerToolName === "advisor") {
                  const output = part.output;
                  if (output.type !== "json" && output.type !== "error-json") {
                    warnings.push({
                      type: "other",
                      message: `provider executed tool result output type ${output.type} for tool ${part.toolName} is not supported`
                    });
                    break;
                  }
                  const advisorOutput = await validateTypes({
                    value: output.value,
                    schema: advisor_20260301OutputSchema
                  });
                  if (advisorOutput.type === "advisor_result") {
                    anthropicContent.push({
                      type: "advisor_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "advisor_result",
                        text: advisorOutput.text
                      },
                      cache_control: cacheControl
                    });
                  } else if (advisorOutput.type === "advisor_redacted_result") {
                    anthropicContent.push({
                      type: "advisor_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "advisor_redacted_result",
                        encrypted_content: advisorOutput.encryptedContent
                      },
                      cache_control: cacheControl
                    });
                  } else {
                    anthropicContent.push({
                      type: "advisor_tool_result",
                      tool_use_id: part.toolCallId,
                      content: {
                        type: "advisor_tool_result_error",
                        error_code: advisorOutput.errorCode
                      },
                      cache_control: cacheControl
                    });
                  }
                  break;
                }
                warnings.push({
                  type: "other",
                  message: `provider executed tool result for tool ${part.toolName} is not supported`
                });
                break;
              }
            }
          }
        }
        messages.push({
          role: "assistant",
          content: moveToolUseBlocksToEnd(anthropicContent)
        });
        break;
      }
      default: {
        const _exhaustiveCheck = type;
        throw new Error(`content type: ${_exhaustiveCheck}`);
      }
    }
  }
  const codeExecutionToolCallIds = /* @__PURE__ */ new Set();
  for (const message of messages) {
    if (message.role !== "assistant") {
      continue;
    }
    for (const part of message.content) {
      if (part.type === "server_tool_use" && part.name === "code_execution") {
        codeExecutionToolCallIds.add(part.id);
      }
    }
  }
  const warnedToolCallIds = /* @__PURE__ */ new Set();
  for (let i = 0; i < lastUserMessageIndex; i++) {
    const message = messages[i];
    if (message.role !== "assistant") {
      continue;
    }
    for (const part of message.content) {
      if (!("caller" in part)) {
        continue;
      }
      const caller = part.caller;
      if (caller == null || caller.type === "direct" || codeExecutionToolCallIds.has(caller.tool_id)) {
        continue;
      }
      const toolCallId = "id" in part ? part.id : part.tool_use_id;
      delete part.caller;
      if (!warnedToolCallIds.has(toolCallId)) {
        warnedToolCallIds.add(toolCallId);
        warnings.push({
          type: "other",
          message: `Omitted caller metadata for tool ${toolCallId} because source code execution tool ${caller.tool_id} is missing from the conversation history.`
        });
      }
    }
  }
  return {
    prompt: { system, messages },
    betas
  };
}
function groupIntoBlocks(prompt) {
  const blocks = [];
  let currentBlock = void 0;
  for (const message of prompt) {
    const { role } = message;
    switch (role) {
      case "system": {
        if ((currentBlock == null ? void 0 : currentBlock.type) !== "system") {
          currentBlock = { type: "system", messages: [] };
          blocks.push(currentBlock);
        }
        currentBlock.messages.push(message);
        break;
      }
      case "assistant": {
        if ((currentBlock == null ? void 0 : currentBlock.type) !== "assistant") {
          currentBlock = { type: "assistant", messages: [] };
          blocks.push(currentBlock);
        }
        currentBlock.messages.push(message);
        break;
      }
      case "user": {
        if ((currentBlock == null ? void 0 : currentBlock.type) !== "user") {
          currentBlock = { type: "user", messages: [] };
          blocks.push(currentBlock);
        }
        currentBlock.messages.push(message);
        break;
      }
      case "tool": {
        if ((currentBlock == null ? void 0 : currentBlock.type) !== "user") {
          currentBlock = { type: "user", messages: [] };
          blocks.push(currentBlock);
        }
        currentBlock.messages.push(message);
        break;
      }
      default: {
        const _exhaustiveCheck = role;
        throw new Error(`Unsupported role: ${_exhaustiveCheck}`);
      }
    }
  }
  return blocks;
}
function moveToolUseBlocksToEnd(content) {
  const result = [];
  let segment = [];
  function flushSegment() {
    result.push(
      ...segment.filter((part) => part.type !== "tool_use"),
      ...segment.filter((part) => part.type === "tool_use")
    );
    segment = [];
  }
  for (const part of content) {
    if (part.type === "thinking" || part.type === "redacted_thinking") {
      flushSegment();
      result.push(part);
    } else {
      segment.push(part);
    }
  }
  flushSegment();
  return result;
}
function getAnthropicToolsetName({
  toolName,
  providerOptions,
  toolsetNames
}) {
  var _a;
  const fromTools = toolsetNames[toolName];
  if (fromTools != null) {
    return fromTools;
  }
  const fromMetadata = (_a = providerOptions == null ? void 0 : providerOptions.anthropic) == null ? void 0 : _a.toolsetName;
  return typeof fromMetadata === "string" ? fromMetadata : void 0;
}
function getAnthropicCaller(providerOptions) {
  var _a;
  const caller = (_a = providerOptions == null ? void 0 : providerOptions.anthropic) == null ? void 0 : _a.caller;
  if (((caller == null ? void 0 : caller.type) === "code_execution_20250825" || (caller == null ? void 0 : caller.type) === "code_execution_20260120") && caller.toolId) {
    return {
      type: caller.type,
      tool_id: caller.toolId
    };
  }
  return (caller == null ? void 0 : caller.type) === "direct" ? { type: "direct" } : void 0;
}
function parseToolCallInput(input) {
  if (typeof input === "string") {
    try {
      const parsed = secureJsonParse(input);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
        return parsed;
      }
    } catch (e) {
    }
  }
  return input;
}
function mapAnthropicStopReason({
  finishReason,
  isJsonResponseFromTool
}) {
  switch (finishReason) {
    case "pause_turn":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "refusal":
      return "content-filter";
    case "tool_use":
      return isJsonResponseFromTool ? "stop" : "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "compaction":
      return "other";
    default:
      return "other";
  }
}
var SUPPORTED_STRING_FORMATS = /* @__PURE__ */ new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid"
]);
var DESCRIPTION_CONSTRAINT_KEYS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "not"
];
function sanitizeJsonSchema(schema) {
  return sanitizeSchema(schema);
}
function sanitizeDefinition(definition) {
  if (typeof definition === "boolean" || !isPlainObject(definition)) {
    return definition;
  }
  return sanitizeSchema(definition);
}
function sanitizeSchema(schema) {
  const result = {};
  if (schema.$ref != null) {
    return { $ref: schema.$ref, ...sanitizeSchemaDefinitions(schema) };
  }
  if (schema.$schema != null) {
    result.$schema = schema.$schema;
  }
  if (schema.$id != null) {
    result.$id = schema.$id;
  }
  if (schema.title != null) {
    result.title = schema.title;
  }
  if (schema.description != null) {
    result.description = schema.description;
  }
  if (schema.default !== void 0) {
    result.default = schema.default;
  }
  if (schema.const !== void 0) {
    result.const = schema.const;
  }
  if (schema.enum != null) {
    result.enum = schema.enum;
  }
  if (schema.type != null) {
    result.type = schema.type;
  }
  if (schema.anyOf != null) {
    result.anyOf = schema.anyOf.map(sanitizeDefinition);
  } else if (schema.oneOf != null) {
    result.anyOf = schema.oneOf.map(sanitizeDefinition);
  }
  if (schema.allOf != null) {
    result.allOf = schema.allOf.map(sanitizeDefinition);
  }
  Object.assign(result, sanitizeSchemaDefinitions(schema));
  if (schema.type === "object" || schema.properties != null) {
    if (schema.properties != null) {
      result.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([name, definition]) => [
          name,
          sanitizeDefinition(definition)
        ])
      );
    }
    result.additionalProperties = false;
    if (schema.required != null) {
      result.required = schema.required;
    }
  }
  if (schema.items != null) {
    result.items = Array.isArray(schema.items) ? schema.items.map(sanitizeDefinition) : sanitizeDefinition(schema.items);
  }
  if (typeof schema.format === "string" && SUPPORTED_STRING_FORMATS.has(schema.format)) {
    result.format = schema.format;
  }
  const constraintDescription = getConstraintDescription(schema);
  if (constraintDescription != null) {
    result.description = result.description == null ? constraintDescription : `${result.description}
${constraintDescription}`;
  }
  return result;
}
function sanitizeSchemaDefinitions(schema) {
  const { $defs } = schema;
  const sanitizeAll = (definitions) => Object.fromEntries(
    Object.entries(definitions).map(([name, definition]) => [
      name,
      sanitizeDefinition(definition)
    ])
  );
  return {
    ...schema.definitions != null && {
      definitions: sanitizeAll(schema.definitions)
    },
    ...$defs != null && { $defs: sanitizeAll($defs) }
  };
}
function getConstraintDescription(schema) {
  const descriptions = DESCRIPTION_CONSTRAINT_KEYS.flatMap((key) => {
    const value = schema[key];
    if (value == null || value === false) {
      return [];
    }
    return `${formatConstraintName(key)}: ${formatConstraintValue(value)}`;
  });
  if (typeof schema.format === "string" && !SUPPORTED_STRING_FORMATS.has(schema.format)) {
    descriptions.push(`format: ${schema.format}`);
  }
  return descriptions.length === 0 ? void 0 : `${descriptions.join("; ")}.`;
}
function formatConstraintName(key) {
  return key.replace(/[A-Z]/g, (match) => ` ${match.toLowerCase()}`);
}
function formatConstraintValue(value) {
  if (typeof value === "string") {
    return value;
  }
  return JSON.stringify(value);
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var SCHEMA_MAP_KEYWORDS = /* @__PURE__ */ new Set([
  "dependentSchemas",
  "patternProperties",
  "properties"
]);
var DATA_KEYWORDS = /* @__PURE__ */ new Set(["const", "default", "enum", "examples"]);
function hasCircularSchemaReference(schema) {
  const visiting = /* @__PURE__ */ new Set();
  const visited = /* @__PURE__ */ new Set();
  const visit = (pointer) => {
    if (visiting.has(pointer)) {
      return true;
    }
    if (visited.has(pointer)) {
      return false;
    }
    const target = resolveSchemaPointer(schema, pointer);
    if (target === void 0) {
      return false;
    }
    visiting.add(pointer);
    const isCircular = collectLocalRefs(target).some(visit);
    visiting.delete(pointer);
    visited.add(pointer);
    return isCircular;
  };
  return visit("#");
}
function collectLocalRefs(node, refs = []) {
  if (Array.isArray(node)) {
    for (const item of node) {
      collectLocalRefs(item, refs);
    }
    return refs;
  }
  if (!isRecord(node)) {
    return refs;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref") {
      if (typeof value === "string" && value.startsWith("#")) {
        refs.push(value);
      }
    } else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      for (const subschema of Object.values(value)) {
        collectLocalRefs(subschema, refs);
      }
    } else if (
      // definitions are only reached through a `$ref`:
      key !== "$defs" && key !== "definitions" && !DATA_KEYWORDS.has(key)
    ) {
      collectLocalRefs(value, refs);
    }
  }
  return refs;
}
function resolveSchemaPointer(schema, pointer) {
  if (pointer === "#") {
    return schema;
  }
  if (!pointer.startsWith("#/")) {
    return void 0;
  }
  let decodedPointer;
  try {
    decodedPointer = decodeURIComponent(pointer.slice(2));
  } catch (e) {
    return void 0;
  }
  let current = schema;
  for (const rawSegment of decodedPointer.split("/")) {
    const segment = rawSegment.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      current = current[Number(segment)];
    } else if (isRecord(current)) {
      current = current[segment];
    } else {
      return void 0;
    }
  }
  return current;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var MAX_OPTIONAL_PROPERTIES = 10;
var SUBSCHEMA_KEYWORDS = [
  "additionalProperties",
  "contains",
  "else",
  "if",
  "items",
  "not",
  "then"
];
var SUBSCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];
var SUBSCHEMA_MAP_KEYWORDS = [
  "dependentSchemas",
  "patternProperties",
  "properties"
];
function supportsNativeStructuredOutputSchema(schema) {
  if (hasCircularSchemaReference(schema)) {
    return false;
  }
  const { optionalProperties, hasOpenObject } = getSchemaStats(
    schema,
    schema,
    /* @__PURE__ */ new Map()
  );
  return !hasOpenObject && optionalProperties <= MAX_OPTIONAL_PROPERTIES;
}
function getSchemaStats(node, root, refStats) {
  const stats = { optionalProperties: 0, hasOpenObject: false };
  if (!isRecord(node)) {
    return stats;
  }
  const add = (child) => {
    const childStats = getSchemaStats(child, root, refStats);
    stats.optionalProperties += childStats.optionalProperties;
    stats.hasOpenObject || (stats.hasOpenObject = childStats.hasOpenObject);
  };
  if (typeof node.$ref === "string" && node.$ref.startsWith("#")) {
    let resolved = refStats.get(node.$ref);
    if (resolved == null) {
      resolved = getSchemaStats(
        resolveSchemaPointer(root, node.$ref),
        root,
        refStats
      );
      refStats.set(node.$ref, resolved);
    }
    stats.optionalProperties += resolved.optionalProperties;
    stats.hasOpenObject || (stats.hasOpenObject = resolved.hasOpenObject);
  }
  if (isOpenObject(node)) {
    stats.hasOpenObject = true;
  }
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    stats.optionalProperties += Object.keys(node.properties).filter(
      (name) => !required.has(name)
    ).length;
  }
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    const value = node[keyword];
    if (Array.isArray(value)) {
      value.forEach(add);
    } else {
      add(value);
    }
  }
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
    const value = node[keyword];
    if (Array.isArray(value)) {
      value.forEach(add);
    }
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const value = node[keyword];
    if (isRecord(value)) {
      Object.values(value).forEach(add);
    }
  }
  return stats;
}
function isOpenObject(node) {
  const { additionalProperties, patternProperties, properties, type } = node;
  if (additionalProperties === true || isRecord(additionalProperties)) {
    return true;
  }
  if (isRecord(patternProperties) && Object.keys(patternProperties).length > 0) {
    return true;
  }
  const isObjectType = type === "object" || Array.isArray(type) && type.includes("object");
  return isObjectType && properties == null && additionalProperties !== false;
}
function createCitationSource(citation, citationDocuments, generateId3) {
  var _a;
  if (citation.type === "web_search_result_location") {
    return {
      type: "source",
      sourceType: "url",
      id: generateId3(),
      url: citation.url,
      title: citation.title,
      providerMetadata: {
        anthropic: {
          citedText: citation.cited_text,
          encryptedIndex: citation.encrypted_index
        }
      }
    };
  }
  if (citation.type !== "page_location" && citation.type !== "char_location") {
    return;
  }
  const documentInfo = citationDocuments[citation.document_index];
  if (!documentInfo) {
    return;
  }
  return {
    type: "source",
    sourceType: "document",
    id: generateId3(),
    mediaType: documentInfo.mediaType,
    title: (_a = citation.document_title) != null ? _a : documentInfo.title,
    filename: documentInfo.filename,
    providerMetadata: {
      anthropic: citation.type === "page_location" ? {
        citedText: citation.cited_text,
        startPageNumber: citation.start_page_number,
        endPageNumber: citation.end_page_number
      } : {
        citedText: citation.cited_text,
        startCharIndex: citation.start_char_index,
        endCharIndex: citation.end_char_index
      }
    }
  };
}
function getAnthropicCallerInfo(caller) {
  return caller == null ? void 0 : {
    type: caller.type,
    toolId: "tool_id" in caller ? caller.tool_id : void 0
  };
}
function getAnthropicCallerMetadata(caller) {
  const callerInfo = getAnthropicCallerInfo(caller);
  return callerInfo == null ? {} : { providerMetadata: { anthropic: { caller: callerInfo } } };
}
function getAnthropicToolsetNames(tools) {
  const toolsetNames = {};
  for (const tool of tools != null ? tools : []) {
    if (tool.type === "provider" && tool.id === "anthropic.computer_toolset_20260801") {
      toolsetNames[tool.name] = "computer";
    }
  }
  return toolsetNames;
}
function toToolsetMemberInput({
  memberName,
  input
}) {
  return {
    action: memberName,
    ...typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}
  };
}
var TEXT_OR_THINKING_BLOCK_TYPES = /* @__PURE__ */ new Set([
  "redacted_thinking",
  "text",
  "thinking"
]);
function isContinuationStopReason(stopReason) {
  return stopReason === "pause_turn" || stopReason === "tool_use";
}
function getJsonResponseToolFallbackText(content, stopReason) {
  const text = /* @__PURE__ */ new Set();
  if (isContinuationStopReason(stopReason)) {
    return text;
  }
  for (const part of content) {
    if (part.type === "tool_use" && part.name === "json") {
      return /* @__PURE__ */ new Set();
    }
    if (part.type === "text") {
      text.add(part);
    } else if (!TEXT_OR_THINKING_BLOCK_TYPES.has(part.type)) {
      text.clear();
    }
  }
  return text;
}
var AnthropicMessagesLanguageModel = class {
  constructor(modelId, config) {
    this.specificationVersion = "v3";
    var _a;
    this.modelId = modelId;
    this.config = config;
    this.generateId = (_a = config.generateId) != null ? _a : generateId;
  }
  supportsUrl(url) {
    return url.protocol === "https:";
  }
  get provider() {
    return this.config.provider;
  }
  /**
   * Extracts the dynamic provider name from the config.provider string.
   * e.g., 'my-custom-anthropic.messages' -> 'my-custom-anthropic'
   */
  get providerOptionsName() {
    const provider = this.config.provider;
    const dotIndex = provider.indexOf(".");
    return dotIndex === -1 ? provider : provider.substring(0, dotIndex);
  }
  get supportedUrls() {
    var _a, _b, _c;
    return (_c = (_b = (_a = this.config).supportedUrls) == null ? void 0 : _b.call(_a)) != null ? _c : {};
  }
  async getArgs({
    userSuppliedBetas,
    prompt,
    maxOutputTokens,
    temperature,
    topP,
    topK,
    frequencyPenalty,
    presencePenalty,
    stopSequences,
    responseFormat,
    seed,
    tools,
    toolChoice,
    providerOptions,
    stream
  }) {
    var _a, _b, _c, _d, _e, _f, _g, _h, _i, _j;
    const warnings = [];
    if (frequencyPenalty != null) {
      warnings.push({ type: "unsupported", feature: "frequencyPenalty" });
    }
    if (presencePenalty != null) {
      warnings.push({ type: "unsupported", feature: "presencePenalty" });
    }
    if (seed != null) {
      warnings.push({ type: "unsupported", feature: "seed" });
    }
    const maxTemperature = (_a = this.config.maxTemperature) != null ? _a : 1;
    const temperatureProvider = this.config.maxTemperature == null ? "anthropic" : this.providerOptionsName;
    if (temperature != null && temperature > maxTemperature) {
      warnings.push({
        type: "unsupported",
        feature: "temperature",
        details: `${temperature} exceeds ${temperatureProvider} maximum of ${maxTemperature.toFixed(1)}. clamped to ${maxTemperature.toFixed(1)}`
      });
      temperature = maxTemperature;
    } else if (temperature != null && temperature < 0) {
      warnings.push({
        type: "unsupported",
        feature: "temperature",
        details: `${temperature} is below ${temperatureProvider} minimum of 0. clamped to 0`
      });
      temperature = 0;
    }
    if ((responseFormat == null ? void 0 : responseFormat.type) === "json") {
      if (responseFormat.schema == null) {
        warnings.push({
          type: "unsupported",
          feature: "responseFormat",
          details: "JSON response format requires a schema. The response format is ignored."
        });
      }
    }
    const providerOptionsName = this.providerOptionsName;
    const canonicalOptions = await parseProviderOptions({
      provider: "anthropic",
      providerOptions,
      schema: anthropicLanguageModelOptions
    });
    const customProviderOptions = providerOptionsName !== "anthropic" ? await parseProviderOptions({
      provider: providerOptionsName,
      providerOptions,
      schema: anthropicLanguageModelOptions
    }) : null;
    const usedCustomProviderKey = customProviderOptions != null;
    const anthropicOptions = Object.assign(
      {},
      canonicalOptions != null ? canonicalOptions : {},
      customProviderOptions != null ? customProviderOptions : {}
    );
    const {
      maxOutputTokens: maxOutputTokensForModel,
      supportsStructuredOutput: modelSupportsStructuredOutput,
      rejectsSamplingParameters,
      rejectsThinkingDisabledAboveHighEffort,
      rejectsThinkingDisabled,
      rejectsBudgetThinking,
      rejectsForcedToolUse,
      supportsBetweenToolsThinking,
      isKnownModel
    } = getModelCapabilities(this.modelId);
    if (!isKnownModel && maxOutputTokens == null) {
      warnings.push({
        type: "compatibility",
        feature: "maxOutputTokens",
        details: `The model "${this.modelId}" is unknown. The max output tokens have been limited to ${maxOutputTokensForModel}. Set maxOutputTokens explicitly to override this limit.`
      });
    }
    if (rejectsSamplingParameters) {
      if (temperature != null) {
        warnings.push({
          type: "unsupported",
          feature: "temperature",
          details: `temperature is not supported by ${this.modelId} and will be ignored`
        });
        temperature = void 0;
      }
      if (topK != null) {
        warnings.push({
          type: "unsupported",
          feature: "topK",
          details: `topK is not supported by ${this.modelId} and will be ignored`
        });
        topK = void 0;
      }
      if (topP != null) {
        warnings.push({
          type: "unsupported",
          feature: "topP",
          details: `topP is not supported by ${this.modelId} and will be ignored`
        });
        topP = void 0;
      }
    }
    const isAnthropicModel = isKnownModel || this.modelId.includes("claude-");
    const supportsStructuredOutput = ((_b = this.config.supportsNativeStructuredOutput) != null ? _b : true) && modelSupportsStructuredOutput;
    const supportsResponseSchema = (responseFormat == null ? void 0 : responseFormat.type) !== "json" || responseFormat.schema == null || supportsNativeStructuredOutputSchema(responseFormat.schema);
    const supportsStrictTools = ((_c = this.config.supportsStrictTools) != null ? _c : true) && modelSupportsStructuredOutput;
    const structureOutputMode = (_d = anthropicOptions == null ? void 0 : anthropicOptions.structuredOutputMode) != null ? _d : "auto";
    let useStructuredOutput = structureOutputMode === "outputFormat" || structureOutputMode === "auto" && supportsStructuredOutput && supportsResponseSchema;
    if (!useStructuredOutput && rejectsForcedToolUse && modelSupportsStructuredOutput && (responseFormat == null ? void 0 : responseFormat.type) === "json" && responseFormat.schema != null && supportsNativeStructuredOutputSchema(responseFormat.schema)) {
      warnings.push({
        type: "unsupported",
        feature: "providerOptions.anthropic.structuredOutputMode",
        details: `structuredOutputMode 'jsonTool' is not supported by ${this.modelId} because it rejects forced tool use. Using 'outputFormat' instead.`
      });
      useStructuredOutput = true;
    }
    const jsonResponseTool = (responseFormat == null ? void 0 : responseFormat.type) === "json" && responseFormat.schema != null && !useStructuredOutput ? {
      type: "function",
      name: "json",
      description: "Respond with a JSON object.",
      inputSchema: responseFormat.schema
    } : void 0;
    if (jsonResponseTool != null && (anthropicOptions == null ? void 0 : anthropicOptions.disableParallelToolUse) === false) {
      warnings.push({
        type: "unsupported",
        feature: "providerOptions.anthropic.disableParallelToolUse",
        details: "`disableParallelToolUse: false` is ignored when using the JSON response tool. Parallel tool use is disabled to ensure a single coherent JSON tool call."
      });
    }
    const contextManagement = anthropicOptions == null ? void 0 : anthropicOptions.contextManagement;
    const cacheControlValidator = new CacheControlValidator(
      this.config.cacheControlProviderOptionsName
    );
    const defaultEagerInputStreaming = stream && ((_e = anthropicOptions == null ? void 0 : anthropicOptions.toolStreaming) != null ? _e : true);
    const inlineTools = await getInlineToolsFromPrompt(prompt);
    const declaredFunctionToolNames = new Set(
      (tools != null ? tools : []).flatMap(
        (tool) => tool.type === "function" ? [tool.name] : []
      )
    );
    const toolNameMapping = createToolNameMapping({
      // later entries win when provider tool names collide, so the declared
      // tools go last and an inline tool cannot take over their mapping:
      tools: [
        ...inlineTools.filter(
          (tool) => !(tool.type === "provider" && declaredFunctionToolNames.has(tool.name))
        ),
        ...tools != null ? tools : []
      ],
      providerToolNames: {
        "anthropic.code_execution_20250522": "code_execution",
        "anthropic.code_execution_20250825": "code_execution",
        "anthropic.code_execution_20260120": "code_execution",
        "anthropic.computer_20241022": "computer",
        "anthropic.computer_20250124": "computer",
        "anthropic.computer_20251124": "computer",
        "anthropic.computer_toolset_20260801": "computer",
        "anthropic.text_editor_20241022": "str_replace_editor",
        "anthropic.text_editor_20250124": "str_replace_editor",
        "anthropic.text_editor_20250429": "str_replace_based_edit_tool",
        "anthropic.text_editor_20250728": "str_replace_based_edit_tool",
        "anthropic.bash_20241022": "bash",
        "anthropic.bash_20250124": "bash",
        "anthropic.memory_20250818": "memory",
        "anthropic.web_search_20250305": "web_search",
        "anthropic.web_search_20260209": "web_search",
        "anthropic.web_fetch_20250910": "web_fetch",
        "anthropic.web_fetch_20260209": "web_fetch",
        "anthropic.tool_search_regex_20251119": "tool_search_tool_regex",
        "anthropic.tool_search_bm25_20251119": "tool_search_tool_bm25",
        "anthropic.advisor_20260301": "advisor"
      }
    });
    const toolsetNames = getAnthropicToolsetNames(tools);
    const inlineToolDefinitions = [];
    const { prompt: messagesPrompt, betas } = await convertToAnthropicMessagesPrompt({
      prompt,
      sendReasoning: (_f = anthropicOptions == null ? void 0 : anthropicOptions.sendReasoning) != null ? _f : true,
      warnings,
      cacheControlValidator,
      toolNameMapping,
      toolsetNames,
      convertMediaPart: this.config.convertMediaPart,
      convertInlineTool: async (tool) => {
        const {
          tools: definitions,
          toolWarnings: toolWarnings2,
          betas: betas2
        } = await prepareTools({
          tools: [tool],
          toolChoice: void 0,
          cacheControlValidator,
          supportsStructuredOutput,
          supportsStrictTools
          // no stream-dependent defaults (eager input streaming): the
          // definition is replayed on every request and has to stay
          // identical between streaming and non-streaming calls to keep
          // the cache.
        });
        if ((definitions == null ? void 0 : definitions[0]) != null) {
          inlineToolDefinitions.push({
            sdkName: tool.name,
            definition: definitions[0]
          });
        }
        return {
          definition: definitions == null ? void 0 : definitions[0],
          warnings: toolWarnings2,
          betas: betas2
        };
      }
    });
    if (rejectsThinkingDisabled && (anthropicOptions == null ? void 0 : anthropicOptions.thinking) != null) {
      const requestedThinking = anthropicOptions.thinking;
      const requestedType = "type" in requestedThinking ? requestedThinking.type : void 0;
      if (requestedType === "disabled" && supportsBetweenToolsThinking) {
        warnings.push({
          type: "unsupported",
          feature: "providerOptions.anthropic.thinking",
          details: `thinking cannot be disabled for ${this.modelId}. Using 'between_tools' thinking, the lowest thinking setting, instead.`
        });
        anthropicOptions.thinking = { type: "between_tools" };
      } else if (requestedType === "disabled") {
        warnings.push({
          type: "unsupported",
          feature: "providerOptions.anthropic.thinking",
          details: `thinking cannot be disabled for ${this.modelId}; it always uses adaptive thinking. The thinking setting has been removed. Lower 'effort' to reduce thinking.`
        });
        anthropicOptions.thinking = void 0;
      }
    }
    if (rejectsBudgetThinking && (anthropicOptions == null ? void 0 : anthropicOptions.thinking) != null && "type" in anthropicOptions.thinking && anthropicOptions.thinking.type === "enabled") {
      warnings.push({
        type: "unsupported",
        feature: "providerOptions.anthropic.thinking",
        details: rejectsThinkingDisabled ? `budget-based thinking is not supported by ${this.modelId}; it always uses adaptive thinking. Using adaptive thinking instead. Use 'effort' to control how much the model thinks.` : `budget-based thinking is not supported by ${this.modelId}. Using adaptive thinking instead. Use 'effort' to control how much the model thinks.`
      });
      anthropicOptions.thinking = { type: "adaptive" };
    }
    const thinking = anthropicOptions == null ? void 0 : anthropicOptions.thinking;
    const thinkingType = thinking != null && "type" in thinking ? thinking.type : void 0;
    if (rejectsThinkingDisabledAboveHighEffort && thinkingType === "disabled" && (anthropicOptions.effort === "xhigh" || anthropicOptions.effort === "max")) {
      warnings.push({
        type: "unsupported",
        feature: "providerOptions.anthropic.effort",
        details: `effort '${anthropicOptions.effort}' is not supported by ${this.modelId} when thinking is disabled. The effort has been lowered to 'high'.`
      });
      anthropicOptions.effort = "high";
    }
    if (thinkingType === "between_tools" && (anthropicOptions.effort === "xhigh" || anthropicOptions.effort === "max")) {
      warnings.push({
        type: "unsupported",
        feature: "providerOptions.anthropic.effort",
        details: `effort '${anthropicOptions.effort}' is not supported with 'between_tools' thinking. The effort has been lowered to 'high'.`
      });
      anthropicOptions.effort = "high";
    }
    const isThinking = thinkingType === "enabled" || thinkingType === "adaptive" || thinkingType === "between_tools";
    const sendThinking = isThinking || thinkingType === "disabled";
    let thinkingBudget = thinkingType === "enabled" && thinking != null && "budgetTokens" in thinking ? thinking.budgetTokens : void 0;
    const thinkingDisplay = thinkingType === "adaptive" && thinking != null && "display" in thinking ? thinking.display : void 0;
    const thinkingBlockBinding = thinking != null && "blockBinding" in thinking ? thinking.blockBinding : void 0;
    const sendThinkingConfig = sendThinking || thinkingBlockBinding != null;
    const maxTokens = maxOutputTokens != null ? maxOutputTokens : maxOutputTokensForModel;
    const baseArgs = {
      // model id:
      model: this.modelId,
      // standardized settings:
      max_tokens: maxTokens,
      temperature,
      top_k: topK,
      top_p: topP,
      stop_sequences: stopSequences,
      // provider specific settings:
      ...sendThinkingConfig && {
        thinking: {
          ...thinkingType != null && { type: thinkingType },
          ...thinkingBudget != null && { budget_tokens: thinkingBudget },
          ...thinkingDisplay != null && { display: thinkingDisplay },
          ...thinkingBlockBinding != null && {
            block_binding: {
              prefix_mismatch_behavior: thinkingBlockBinding.prefixMismatchBehavior
            }
          }
        }
      },
      ...((anthropicOptions == null ? void 0 : anthropicOptions.effort) || (anthropicOptions == null ? void 0 : anthropicOptions.taskBudget) || useStructuredOutput && (responseFormat == null ? void 0 : responseFormat.type) === "json" && responseFormat.schema != null) && {
        output_config: {
          ...(anthropicOptions == null ? void 0 : anthropicOptions.effort) && {
            effort: anthropicOptions.effort
          },
          ...(anthropicOptions == null ? void 0 : anthropicOptions.taskBudget) && {
            task_budget: {
              type: anthropicOptions.taskBudget.type,
              total: anthropicOptions.taskBudget.total,
              ...anthropicOptions.taskBudget.remaining != null && {
                remaining: anthropicOptions.taskBudget.remaining
              }
            }
          },
          ...useStructuredOutput && (responseFormat == null ? void 0 : responseFormat.type) === "json" && responseFormat.schema != null && {
            format: {
              type: "json_schema",
              schema: sanitizeJsonSchema(responseFormat.schema)
            }
          }
        }
      },
      ...(anthropicOptions == null ? void 0 : anthropicOptions.speed) && {
        speed: anthropicOptions.speed
      },
      ...(anthropicOptions == null ? void 0 : anthropicOptions.inferenceGeo) && {
        inference_geo: anthropicOptions.inferenceGeo
      },
      ...(anthropicOptions == null ? void 0 : anthropicOptions.fallbacks) != null && (anthropicOptions.fallbacks === "default" || anthropicOptions.fallbacks.length > 0) && {
        fallbacks: anthropicOptions.fallbacks
      },
      ...(anthropicOptions == null ? void 0 : anthropicOptions.cacheControl) && {
        cache_control: anthropicOptions.cacheControl
      },
      ...((_g = anthropicOptions == null ? void 0 : anthropicOptions.metadata) == null ? void 0 : _g.userId) != null && {
        metadata: { user_id: anthropicOptions.metadata.userId }
      },
      // mcp servers:
      ...(anthropicOptions == null ? void 0 : anthropicOptions.mcpServers) && anthropicOptions.mcpServers.length > 0 && {
        mcp_servers: anthropicOptions.mcpServers.map((server) => ({
          type: server.type,
          name: server.name,
          url: server.url,
          authorization_token: server.authorizationToken,
          tool_configuration: server.toolConfiguration ? {
            allowed_tools: server.toolConfiguration.allowedTools,
            enabled: server.toolConfiguration.enabled
          } : void 0
        }))
      },
      // container: For programmatic tool calling (just an ID string) or agent skills (object with id and skills)
      ...(anthropicOptions == null ? void 0 : anthropicOptions.container) && {
        container: anthropicOptions.container.skills && anthropicOptions.container.skills.length > 0 ? (
          // Object format when skills are provided (agent skills feature)
          {
            id: anthropicOptions.container.id,
            skills: anthropicOptions.container.skills.map((skill) => ({
              type: skill.type,
              skill_id: skill.skillId,
              version: skill.version
            }))
          }
        ) : (
          // String format for container ID only (programmatic tool calling)
          anthropicOptions.container.id
        )
      },
      // prompt:
      system: messagesPrompt.system,
      messages: messagesPrompt.messages,
      ...(anthropicOptions == null ? void 0 : anthropicOptions.safeguards) && anthropicOptions.safeguards.length > 0 && {
        safeguards: anthropicOptions.safeguards.map((safeguard) => ({
          type: safeguard.type,
          ...safeguard.classifierContext !== void 0 && {
            classifier_context: safeguard.classifierContext
          }
        }))
      },
      ...contextManagement && {
        context_management: {
          edits: contextManagement.edits.map((edit) => {
            const strategy = edit.type;
            switch (strategy) {
              case "clear_tool_uses_20250919":
                return {
                  type: edit.type,
                  ...edit.trigger !== void 0 && {
                    trigger: edit.trigger
                  },
                  ...edit.keep !== void 0 && { keep: edit.keep },
                  ...edit.clearAtLeast !== void 0 && {
                    clear_at_least: edit.clearAtLeast
                  },
                  ...edit.clearToolInputs !== void 0 && {
                    clear_tool_inputs: edit.clearToolInputs
                  },
                  ...edit.excludeTools !== void 0 && {
                    exclude_tools: edit.excludeTools
                  }
                };
              case "clear_thinking_20251015":
                return {
                  type: edit.type,
                  ...edit.keep !== void 0 && { keep: edit.keep }
                };
              case "compact_20260112":
                return {
                  type: edit.type,
                  ...edit.trigger !== void 0 && {
                    trigger: edit.trigger
                  },
                  ...edit.pauseAfterCompaction !== void 0 && {
                    pause_after_compaction: edit.pauseAfterCompaction
                  },
                  ...edit.instructions !== void 0 && {
                    instructions: edit.instructions
                  }
                };
              default:
                warnings.push({
                  type: "other",
                  message: `Unknown context management strategy: ${strategy}`
                });
                return void 0;
            }
          }).filter((edit) => edit !== void 0)
        }
      }
    };
    if (isThinking) {
      if (thinkingType === "enabled" && thinkingBudget == null) {
        warnings.push({
          type: "compatibility",
          feature: "extended thinking",
          details: "thinking budget is required when thinking is enabled. using default budget of 1024 tokens."
        });
        baseArgs.thinking = {
          type: "enabled",
          budget_tokens: 1024
        };
        thinkingBudget = 1024;
      }
      if (baseArgs.temperature != null && !this.config.supportsTemperatureAndTopPWithThinking) {
        baseArgs.temperature = void 0;
        warnings.push({
          type: "unsupported",
          feature: "temperature",
          details: "temperature is not supported when thinking is enabled"
        });
      }
      if (topK != null) {
        baseArgs.top_k = void 0;
        warnings.push({
          type: "unsupported",
          feature: "topK",
          details: "topK is not supported when thinking is enabled"
        });
      }
      if (topP != null && !this.config.supportsTemperatureAndTopPWithThinking) {
        baseArgs.top_p = void 0;
        warnings.push({
          type: "unsupported",
          feature: "topP",
          details: "topP is not supported when thinking is enabled"
        });
      }
      baseArgs.max_tokens = maxTokens + (thinkingBudget != null ? thinkingBudget : 0);
    } else {
      if (isAnthropicModel && topP != null && temperature != null) {
        warnings.push({
          type: "unsupported",
          feature: "topP",
          details: `topP is not supported when temperature is set. topP is ignored.`
        });
        baseArgs.top_p = void 0;
      }
    }
    if (isKnownModel && baseArgs.max_tokens > maxOutputTokensForModel) {
      if (maxOutputTokens != null) {
        warnings.push({
          type: "unsupported",
          feature: "maxOutputTokens",
          details: `${baseArgs.max_tokens} (maxOutputTokens + thinkingBudget) is greater than ${this.modelId} ${maxOutputTokensForModel} max output tokens. The max output tokens have been limited to ${maxOutputTokensForModel}.`
        });
      }
      baseArgs.max_tokens = maxOutputTokensForModel;
    }
    if ((anthropicOptions == null ? void 0 : anthropicOptions.mcpServers) && anthropicOptions.mcpServers.length > 0) {
      betas.add("mcp-client-2025-04-04");
    }
    if ((anthropicOptions == null ? void 0 : anthropicOptions.safeguards) && anthropicOptions.safeguards.length > 0) {
      betas.add("dangerous-tool-use-2026-09-03");
    }
    if (contextManagement) {
      betas.add("context-management-2025-06-27");
      if (contextManagement.edits.some((e) => e.type === "compact_20260112")) {
        betas.add("compact-2026-01-12");
      }
    }
    if ((anthropicOptions == null ? void 0 : anthropicOptions.container) && anthropicOptions.container.skills && anthropicOptions.container.skills.length > 0) {
      betas.add("code-execution-2025-08-25");
      betas.add("skills-2025-10-02");
      betas.add("files-api-2025-04-14");
      if (!(tools == null ? void 0 : tools.some(
        (tool) => tool.type === "provider" && (tool.id === "anthropic.code_execution_20250825" || tool.id === "anthropic.code_execution_20260120")
      ))) {
        warnings.push({
          type: "other",
          message: "code execution tool is required when using skills"
        });
      }
    }
    if (anthropicOptions == null ? void 0 : anthropicOptions.taskBudget) {
      betas.add("task-budgets-2026-03-13");
    }
    if (thinkingDisplay === "updates") {
      betas.add("thinking-display-updates-2026-08-18");
    }
    if (thinkingBlockBinding != null) {
      betas.add("thinking-binding-controls-2026-08-01");
    }
    if ((anthropicOptions == null ? void 0 : anthropicOptions.speed) === "fast") {
      betas.add("fast-mode-2026-02-01");
    }
    if ((anthropicOptions == null ? void 0 : anthropicOptions.fallbacks) === "default") {
      betas.add("server-side-fallback-2026-07-01");
    } else if ((anthropicOptions == null ? void 0 : anthropicOptions.fallbacks) && anthropicOptions.fallbacks.length > 0) {
      betas.add("server-side-fallback-2026-06-01");
    }
    const {
      tools: anthropicTools2,
      toolChoice: anthropicToolChoice,
      toolWarnings,
      betas: toolsBetas
    } = await prepareTools(
      jsonResponseTool != null ? {
        tools: [
          ...(tools != null ? tools : []).filter(
            (tool) => (toolChoice == null ? void 0 : toolChoice.type) !== "none" && ((toolChoice == null ? void 0 : toolChoice.type) !== "tool" || tool.name === toolChoice.toolName)
          ),
          jsonResponseTool
        ],
        toolChoice: { type: "required" },
        disableParallelToolUse: true,
        cacheControlValidator,
        supportsStructuredOutput: false,
        supportsStrictTools,
        defaultEagerInputStreaming,
        rejectsForcedToolUse: rejectsForcedToolUse || thinkingType === "enabled"
      } : {
        tools: tools != null ? tools : [],
        toolChoice,
        // tool changes can add tools when `tools` is empty, so the tool
        // choice and parallel tool use settings still apply:
        hasInlineTools: inlineTools.length > 0,
        disableParallelToolUse: anthropicOptions == null ? void 0 : anthropicOptions.disableParallelToolUse,
        cacheControlValidator,
        supportsStructuredOutput,
        supportsStrictTools,
        defaultEagerInputStreaming,
        rejectsForcedToolUse: rejectsForcedToolUse || thinkingType === "enabled"
      }
    );
    if ((toolChoice == null ? void 0 : toolChoice.type) === "tool" && ((anthropicToolChoice == null ? void 0 : anthropicToolChoice.type) === "auto" || jsonResponseTool != null) || (toolChoice == null ? void 0 : toolChoice.type) === "none" && jsonResponseTool != null) {
      for (const server of (_h = baseArgs.mcp_servers) != null ? _h : []) {
        server.tool_configuration = {
          allowed_tools: (_i = server.tool_configuration) == null ? void 0 : _i.allowed_tools,
          enabled: false
        };
      }
      const emittedInlineDefinitions = new Set(
        messagesPrompt.messages.flatMap(
          (message) => message.role === "system" ? message.content.flatMap(
            (part) => part.type === "tool_addition" && part.tool.type === "tool_definition" ? [part.tool.definition] : []
          ) : []
        )
      );
      const selectedSdkName = toolChoice.type === "tool" ? toolChoice.toolName : void 0;
      const selectedTool = tools == null ? void 0 : tools.find((tool) => tool.name === selectedSdkName);
      const selectedProviderName = jsonResponseTool != null && selectedSdkName != null && (selectedTool == null ? void 0 : selectedTool.type) !== "function" ? toolNameMapping.toProviderToolName(selectedSdkName) : selectedSdkName;
      const conflictingTool = inlineToolDefinitions.find(
        ({ sdkName, definition }) => emittedInlineDefinitions.has(definition) && (toolChoice.type === "none" || // The JSON-tool path filters application tools by SDK name before
        // conversion; the forced-choice fallback filters by provider name.
        jsonResponseTool != null && sdkName !== selectedSdkName || !("name" in definition) || definition.name !== selectedProviderName)
      );
      if (conflictingTool != null) {
        const toolName = "name" in conflictingTool.definition ? conflictingTool.definition.name : conflictingTool.definition.type;
        const choice = toolChoice.type === "tool" ? `named tool choice '${toolChoice.toolName}'` : `tool choice 'none'`;
        throw new InvalidArgumentError({
          argument: "toolChoice",
          message: `Inline tool '${toolName}' conflicts with ${choice}. Inline definitions must respect the tool choice when forced tool use falls back or the JSON response tool is used.`
        });
      }
    }
    const cacheWarnings = cacheControlValidator.getWarnings();
    return {
      args: {
        ...baseArgs,
        tools: anthropicTools2,
        tool_choice: anthropicToolChoice,
        stream: stream === true ? true : void 0
        // do not send when not streaming
      },
      warnings: [...warnings, ...toolWarnings, ...cacheWarnings],
      betas: /* @__PURE__ */ new Set([
        ...betas,
        ...toolsBetas,
        ...userSuppliedBetas,
        ...(_j = anthropicOptions == null ? void 0 : anthropicOptions.anthropicBeta) != null ? _j : []
      ]),
      usesJsonResponseTool: jsonResponseTool != null,
      toolNameMapping,
      providerOptionsName,
      usedCustomProviderKey
    };
  }
  async getHeaders({
    betas,
    headers
  }) {
    return combineHeaders(
      await resolve(this.config.headers),
      headers,
      betas.size > 0 ? { "anthropic-beta": Array.from(betas).join(",") } : {}
    );
  }
  async getBetasFromHeaders(requestHeaders) {
    var _a, _b;
    const configHeaders = await resolve(this.config.headers);
    const configBetaHeader = (_a = configHeaders["anthropic-beta"]) != null ? _a : "";
    const requestBetaHeader = (_b = requestHeaders == null ? void 0 : requestHeaders["anthropic-beta"]) != null ? _b : "";
    return new Set(
      [
        ...configBetaHeader.toLowerCase().split(","),
        ...requestBetaHeader.toLowerCase().split(",")
      ].map((beta) => beta.trim()).filter((beta) => beta !== "")
    );
  }
  buildRequestUrl(isStreaming) {
    var _a, _b, _c;
    return (_c = (_b = (_a = this.config).buildRequestUrl) == null ? void 0 : _b.call(_a, this.config.baseURL, isStreaming)) != null ? _c : `${this.config.baseURL}/messages`;
  }
  transformRequestBody(args, betas) {
    var _a, _b, _c;
    return (_c = (_b = (_a = this.config).transformRequestBody) == null ? void 0 : _b.call(_a, args, betas)) != null ? _c : args;
  }
  extractCitationDocuments(prompt) {
    const isCitationPart = (part) => {
      var _a, _b;
      if (part.type !== "file") {
        return false;
      }
      if (part.mediaType !== "application/pdf" && part.mediaType !== "text/plain") {
        return false;
      }
      const anthropic2 = (_a = part.providerOptions) == null ? void 0 : _a.anthropic;
      const citationsConfig = anthropic2 == null ? void 0 : anthropic2.citations;
      return (_b = citationsConfig == null ? void 0 : citationsConfig.enabled) != null ? _b : false;
    };
    return prompt.filter((message) => message.role === "user").flatMap((message) => message.content).filter(isCitationPart).map((part) => {
      var _a;
      const filePart = part;
      return {
        title: (_a = filePart.filename) != null ? _a : "Untitled Document",
        filename: filePart.filename,
        mediaType: filePart.mediaType
      };
    });
  }
  async doGenerate(options) {
    var _a, _b, _c, _d, _e, _f, _g, _h, _i;
    const {
      args,
      warnings,
      betas,
      usesJsonResponseTool,
      toolNameMapping,
      providerOptionsName,
      usedCustomProviderKey
    } = await this.getArgs({
      ...options,
      stream: false,
      userSuppliedBetas: await this.getBetasFromHeaders(options.headers)
    });
    const citationDocuments = [
      ...this.extractCitationDocuments(options.prompt)
    ];
    const markCodeExecutionDynamic = hasWebTool20260209WithoutCodeExecution(
      args.tools
    );
    const {
      responseHeaders,
      value: response,
      rawValue: rawResponse
    } = await postJsonToApi({
      url: this.buildRequestUrl(false),
      headers: await this.getHeaders({ betas, headers: options.headers }),
      body: this.transformRequestBody(args, betas),
      failedResponseHandler: anthropicFailedResponseHandler,
      successfulResponseHandler: createJsonResponseHandler(
        anthropicMessagesResponseSchema
      ),
      abortSignal: options.abortSignal,
      fetch: this.config.fetch
    });
    const content = [];
    const mcpToolCalls = {};
    const serverToolCalls = {};
    let isJsonResponseFromTool = false;
    const jsonResponseToolFallbackText = usesJsonResponseTool ? getJsonResponseToolFallbackText(response.content, response.stop_reason) : void 0;
    for (const part of response.content) {
      switch (part.type) {
        case "text": {
          if (jsonResponseToolFallbackText == null || jsonResponseToolFallbackText.has(part)) {
            const webSearchCitations = (_a = part.citations) == null ? void 0 : _a.filter(
              (citation) => citation.type === "web_search_result_location"
            );
            content.push({
              type: "text",
              text: part.text,
              ...webSearchCitations != null && webSearchCitations.length > 0 && {
                providerMetadata: {
                  anthropic: {
                    citations: webSearchCitations
                  }
                }
              }
            });
            if (part.citations) {
              for (const citation of part.citations) {
                const source = createCitationSource(
                  citation,
                  citationDocuments,
                  this.generateId
                );
                if (source) {
                  content.push(source);
                }
              }
            }
          }
          break;
        }
        case "thinking": {
          content.push({
            type: "reasoning",
            text: part.thinking,
            providerMetadata: {
              anthropic: {
                signature: part.signature
              }
            }
          });
          break;
        }
        case "redacted_thinking": {
          content.push({
            type: "reasoning",
            text: "",
            providerMetadata: {
              anthropic: {
                redactedData: part.data
              }
            }
          });
          break;
        }
        case "compaction": {
          content.push({
            type: "text",
            text: part.content,
            providerMetadata: {
              anthropic: {
                type: "compaction"
              }
            }
          });
          break;
        }
        case "tool_use": {
          const isJsonResponseTool = usesJsonResponseTool && part.name === "json";
          if (isJsonResponseTool) {
            isJsonResponseFromTool = true;
            content.push({
              type: "text",
              text: JSON.stringify(part.input)
            });
          } else if (part.toolset_name != null) {
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: toolNameMapping.toCustomToolName(part.toolset_name),
              input: JSON.stringify(
                toToolsetMemberInput({
                  memberName: part.name,
                  input: part.input
                })
              ),
              providerMetadata: {
                anthropic: {
                  toolsetName: part.toolset_name,
                  ...(_b = getAnthropicCallerMetadata(part.caller).providerMetadata) == null ? void 0 : _b.anthropic
                }
              }
            });
          } else {
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: part.name,
              input: JSON.stringify(part.input),
              ...getAnthropicCallerMetadata(part.caller)
            });
          }
          break;
        }
        case "server_tool_use": {
          if (part.name === "text_editor_code_execution" || part.name === "bash_code_execution") {
            const providerToolName = "code_execution";
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: toolNameMapping.toCustomToolName("code_execution"),
              input: JSON.stringify({ type: part.name, ...part.input }),
              providerExecuted: true,
              // Specific 'web_fetch' or 'web_search' tools may need code execution, which the Anthropic API
              // implicitly allows. In this scenario, we need to allow 'code_execution' tool calls even if the
              // tool was not explicitly provided. We therefore bypass the general validation by marking the
              // tool as dynamic.
              ...markCodeExecutionDynamic && providerToolName === "code_execution" ? { dynamic: true } : {},
              ...getAnthropicCallerMetadata(part.caller)
            });
          } else if (part.name === "web_search" || part.name === "code_execution" || part.name === "web_fetch") {
            const inputToSerialize = part.name === "code_execution" && part.input != null && typeof part.input === "object" && "code" in part.input && !("type" in part.input) ? { type: "programmatic-tool-call", ...part.input } : part.input;
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: toolNameMapping.toCustomToolName(part.name),
              input: JSON.stringify(inputToSerialize),
              providerExecuted: true,
              // Specific 'web_fetch' or 'web_search' tools may need code execution, which the Anthropic API
              // implicitly allows. In this scenario, we need to allow 'code_execution' tool calls even if the
              // tool was not explicitly provided. We therefore bypass the general validation by marking the
              // tool as dynamic.
              ...markCodeExecutionDynamic && part.name === "code_execution" ? { dynamic: true } : {},
              ...getAnthropicCallerMetadata(part.caller)
            });
          } else if (part.name === "tool_search_tool_regex" || part.name === "tool_search_tool_bm25") {
            serverToolCalls[part.id] = part.name;
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: toolNameMapping.toCustomToolName(part.name),
              input: JSON.stringify(part.input),
              providerExecuted: true,
              ...getAnthropicCallerMetadata(part.caller)
            });
          } else if (part.name === "advisor") {
            content.push({
              type: "tool-call",
              toolCallId: part.id,
              toolName: toolNameMapping.toCustomToolName("advisor"),
              input: JSON.stringify(part.input),
              providerExecuted: true,
              ...getAnthropicCallerMetadata(part.caller)
            });
          }
          break;
        }
        case "mcp_tool_use": {
          mcpToolCalls[part.id] = {
            type: "tool-call",
            toolCallId: part.id,
            toolName: part.name,
            input: JSON.stringify(part.input),
            providerExecuted: true,
            dynamic: true,
            providerMetadata: {
              anthropic: {
                type: "mcp-tool-use",
                serverName: part.server_name
              }
            }
          };
          content.push(mcpToolCalls[part.id]);
          break;
        }
        case "mcp_tool_result": {
          content.push({
            type: "tool-result",
            toolCallId: part.tool_use_id,
            toolName: mcpToolCalls[part.tool_use_id].toolName,
            isError: part.is_error,
            result: part.content,
            dynamic: true,
            providerMetadata: mcpToolCalls[part.tool_use_id].providerMetadata
          });
          break;
        }
        case "web_fetch_tool_result": {
          if (part.content.type === "web_fetch_result") {
            citationDocuments.push({
              title: (_c = part.content.content.title) != null ? _c : part.content.url,
              mediaType: part.content.content.source.media_type
            });
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("web_fetch"),
              result: {
                type: "web_fetch_result",
                url: part.content.url,
                retrievedAt: part.content.retrieved_at,
                content: {
                  type: part.content.content.type,
                  title: part.content.content.title,
                  citations: part.content.content.citations,
                  source: {
                    type: part.content.content.source.type,
                    mediaType: part.content.content.source.media_type,
                    data: part.content.content.source.data
                  }
                }
              },
              ...getAnthropicCallerMetadata(part.caller)
            });
          } else if (part.content.type === "web_fetch_tool_result_error") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("web_fetch"),
              isError: true,
              result: {
                type: "web_fetch_tool_result_error",
                errorCode: part.content.error_code
              },
              ...getAnthropicCallerMetadata(part.caller)
            });
          }
          break;
        }
        case "web_search_tool_result": {
          if (Array.isArray(part.content)) {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("web_search"),
              result: part.content.map((result) => {
                var _a2;
                return {
                  url: result.url,
                  title: result.title,
                  pageAge: (_a2 = result.page_age) != null ? _a2 : null,
                  encryptedContent: result.encrypted_content,
                  type: result.type
                };
              }),
              ...getAnthropicCallerMetadata(part.caller)
            });
            for (const result of part.content) {
              content.push({
                type: "source",
                sourceType: "url",
                id: this.generateId(),
                url: result.url,
                title: result.title,
                providerMetadata: {
                  anthropic: {
                    pageAge: (_d = result.page_age) != null ? _d : null
                  }
                }
              });
            }
          } else {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("web_search"),
              isError: true,
              result: {
                type: "web_search_tool_result_error",
                errorCode: part.content.error_code
              },
              ...getAnthropicCallerMetadata(part.caller)
            });
          }
          break;
        }
        // code execution 20250522:
        case "code_execution_tool_result": {
          if (part.content.type === "code_execution_result") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("code_execution"),
              result: {
                type: part.content.type,
                stdout: part.content.stdout,
                stderr: part.content.stderr,
                return_code: part.content.return_code,
                content: (_e = part.content.content) != null ? _e : []
              }
            });
          } else if (part.content.type === "encrypted_code_execution_result") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("code_execution"),
              result: {
                type: part.content.type,
                encrypted_stdout: part.content.encrypted_stdout,
                stderr: part.content.stderr,
                return_code: part.content.return_code,
                content: (_f = part.content.content) != null ? _f : []
              }
            });
          } else if (part.content.type === "code_execution_tool_result_error") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName("code_execution"),
              isError: true,
              result: {
                type: "code_execution_tool_result_error",
                errorCode: part.content.error_code
              }
            });
          }
          break;
        }
        // code execution 20250825:
        case "bash_code_execution_tool_result":
        case "text_editor_code_execution_tool_result": {
          content.push({
            type: "tool-result",
            toolCallId: part.tool_use_id,
            toolName: toolNameMapping.toCustomToolName("code_execution"),
            result: part.content
          });
          break;
        }
        // tool search tool results:
        case "tool_search_tool_result": {
          let providerToolName = serverToolCalls[part.tool_use_id];
          if (providerToolName == null) {
            const bm25CustomName = toolNameMapping.toCustomToolName(
              "tool_search_tool_bm25"
            );
            const regexCustomName = toolNameMapping.toCustomToolName(
              "tool_search_tool_regex"
            );
            if (bm25CustomName !== "tool_search_tool_bm25") {
              providerToolName = "tool_search_tool_bm25";
            } else if (regexCustomName !== "tool_search_tool_regex") {
              providerToolName = "tool_search_tool_regex";
            } else {
              providerToolName = "tool_search_tool_regex";
            }
          }
          if (part.content.type === "tool_search_tool_search_result") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName(providerToolName),
              result: part.content.tool_references.map((ref) => ({
                type: ref.type,
                toolName: ref.tool_name
              }))
            });
          } else {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: toolNameMapping.toCustomToolName(providerToolName),
              isError: true,
              result: {
                type: "tool_search_tool_result_error",
                errorCode: part.content.error_code
              }
            });
          }
          break;
        }
        // advisor results for advisor_20260301:
        case "advisor_tool_result": {
          const advisorToolName = toolNameMapping.toCustomToolName("advisor");
          if (part.content.type === "advisor_result") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: advisorToolName,
              result: {
                type: "advisor_result",
                text: part.content.text
              }
            });
          } else if (part.content.type === "advisor_redacted_result") {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: advisorToolName,
              result: {
                type: "advisor_redacted_result",
                encryptedContent: part.content.encrypted_content
              }
            });
          } else {
            content.push({
              type: "tool-result",
              toolCallId: part.tool_use_id,
              toolName: advisorToolName,
              isError: true,
              result: {
                type: "advisor_tool_result_error",
                errorCode: part.content.error_code
              }
            });
          }
          break;
        }
        // Server-side fallback marker: the AI SDK has no content primitive for
        // a model hop, so drop it. The hop is still observable via
        // usage.iterations.
        case "fallback": {
          break;
        }
      }
    }
    return {
      content,
      finishReason: {
        unified: mapAnthropicStopReason({
          finishReason: response.stop_reason,
          isJsonResponseFromTool
        }),
        raw: (_g = response.stop_reason) != null ? _g : void 0
      },
      usage: convertAnthropicMessagesUsage({ usage: response.usage }),
      request: { body: args },
      response: {
        id: (_h = response.id) != null ? _h : void 0,
        modelId: (_i = response.model) != null ? _i : void 0,
        headers: responseHeaders,
        body: rawResponse
      },
      warnings,
      providerMetadata: (() => {
        var _a2, _b2, _c2, _d2, _e2;
        const stopDetails = mapAnthropicStopDetails(response.stop_details);
        const anthropicMetadata = {
          usage: response.usage,
          cacheCreationInputTokens: (_a2 = response.usage.cache_creation_input_tokens) != null ? _a2 : null,
          stopSequence: (_b2 = response.stop_sequence) != null ? _b2 : null,
          ...stopDetails != null ? { stopDetails } : {},
          ...response.input_transformations != null ? { inputTransformations: response.input_transformations } : {},
          ...response.safeguard_results != null ? { safeguardResults: response.safeguard_results } : {},
          iterations: response.usage.iterations ? response.usage.iterations.map(
            (iter) => ({
              type: iter.type,
              ...iter.model != null ? { model: iter.model } : {},
              inputTokens: iter.input_tokens,
              outputTokens: iter.output_tokens,
              ...iter.cache_creation_input_tokens ? {
                cacheCreationInputTokens: iter.cache_creation_input_tokens
              } : {},
              ...iter.cache_read_input_tokens ? {
                cacheReadInputTokens: iter.cache_read_input_tokens
              } : {}
            })
          ) : null,
          container: response.container ? {
            expiresAt: response.container.expires_at,
            id: response.container.id,
            skills: (_d2 = (_c2 = response.container.skills) == null ? void 0 : _c2.map((skill) => ({
              type: skill.type,
              skillId: skill.skill_id,
              version: skill.version
            }))) != null ? _d2 : null
          } : null,
          contextManagement: (_e2 = mapAnthropicResponseContextManagement(
            response.context_management
          )) != null ? _e2 : null
        };
        const providerMetadata = {
          anthropic: anthropicMetadata
        };
        if (usedCustomProviderKey && providerOptionsName !== "anthropic") {
          providerMetadata[providerOptionsName] = anthropicMetadata;
        }
        return providerMetadata;
      })()
    };
  }
  async doStream(options) {
    var _a, _b;
    const {
      args: body,
      warnings,
      betas,
      usesJsonResponseTool,
      toolNameMapping,
      providerOptionsName,
      usedCustomProviderKey
    } = await this.getArgs({
      ...options,
      stream: true,
      userSuppliedBetas: await this.getBetasFromHeaders(options.headers)
    });
    const citationDocuments = [
      ...this.extractCitationDocuments(options.prompt)
    ];
    const markCodeExecutionDynamic = hasWebTool20260209WithoutCodeExecution(
      body.tools
    );
    const url = this.buildRequestUrl(true);
    const { responseHeaders, value: response } = await postJsonToApi({
      url,
      headers: await this.getHeaders({ betas, headers: options.headers }),
      body: this.transformRequestBody(body, betas),
      failedResponseHandler: anthropicFailedResponseHandler,
      successfulResponseHandler: createEventSourceResponseHandler(
        anthropicMessagesChunkSchema
      ),
      abortSignal: options.abortSignal,
      fetch: this.config.fetch
    });
    let finishReason = {
      unified: "other",
      raw: void 0
    };
    const usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      iterations: null
    };
    const contentBlocks = {};
    const mcpToolCalls = {};
    const serverToolCalls = {};
    let contextManagement = null;
    let rawUsage = void 0;
    let cacheCreationInputTokens = null;
    let stopSequence = null;
    let stopDetails = void 0;
    let inputTransformations;
    let safeguardResults;
    let container = null;
    let isJsonResponseFromTool = false;
    const heldBackText = [];
    const heldBackTextByIndex = /* @__PURE__ */ new Map();
    const createTextEnd = (id, citations) => ({
      type: "text-end",
      id,
      ...citations.length > 0 && {
        providerMetadata: { anthropic: { citations } }
      }
    });
    let isMessageOpen = false;
    let activeMessageId;
    let hasInvalidMessageSequence = false;
    let blockType = void 0;
    const generateId3 = this.generateId;
    const transformedStream = response.pipeThrough(
      new TransformStream({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings });
        },
        transform(chunk, controller) {
          var _a2, _b2, _c, _d, _e, _f, _g, _h, _i, _j, _k, _l, _m, _n, _o;
          if (hasInvalidMessageSequence) {
            return;
          }
          if (options.includeRawChunks) {
            controller.enqueue({ type: "raw", rawValue: chunk.rawValue });
          }
          if (!chunk.success) {
            controller.enqueue({ type: "error", error: chunk.error });
            return;
          }
          const value = chunk.value;
          switch (value.type) {
            case "ping": {
              return;
            }
            case "content_block_start": {
              const part = value.content_block;
              const contentBlockType = part.type;
              if (contentBlockType === "fallback") {
                return;
              }
              blockType = contentBlockType;
              if (!TEXT_OR_THINKING_BLOCK_TYPES.has(contentBlockType)) {
                heldBackText.length = 0;
              }
              switch (contentBlockType) {
                case "text": {
                  if (usesJsonResponseTool) {
                    const entry = {
                      id: String(value.index),
                      text: "",
                      citations: []
                    };
                    heldBackText.push(entry);
                    heldBackTextByIndex.set(value.index, entry);
                    return;
                  }
                  contentBlocks[value.index] = {
                    type: "text",
                    citations: []
                  };
                  controller.enqueue({
                    type: "text-start",
                    id: String(value.index)
                  });
                  return;
                }
                case "thinking": {
                  contentBlocks[value.index] = { type: "reasoning" };
                  controller.enqueue({
                    type: "reasoning-start",
                    id: String(value.index)
                  });
                  return;
                }
                case "redacted_thinking": {
                  contentBlocks[value.index] = { type: "reasoning" };
                  controller.enqueue({
                    type: "reasoning-start",
                    id: String(value.index),
                    providerMetadata: {
                      anthropic: {
                        redactedData: part.data
                      }
                    }
                  });
                  return;
                }
                case "compaction": {
                  contentBlocks[value.index] = {
                    type: "text",
                    citations: []
                  };
                  controller.enqueue({
                    type: "text-start",
                    id: String(value.index),
                    providerMetadata: {
                      anthropic: {
                        type: "compaction"
                      }
                    }
                  });
                  return;
                }
                case "tool_use": {
                  const isJsonResponseTool = usesJsonResponseTool && part.name === "json";
                  if (isJsonResponseTool) {
                    isJsonResponseFromTool = true;
                    contentBlocks[value.index] = {
                      type: "text",
                      citations: []
                    };
                    controller.enqueue({
                      type: "text-start",
                      id: String(value.index)
                    });
                  } else if (part.toolset_name != null) {
                    const callerInfo = getAnthropicCallerInfo(part.caller);
                    const customToolName = toolNameMapping.toCustomToolName(
                      part.toolset_name
                    );
                    const hasNonEmptyInput = part.input && Object.keys(part.input).length > 0;
                    contentBlocks[value.index] = {
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: customToolName,
                      input: hasNonEmptyInput ? JSON.stringify(part.input) : "",
                      firstDelta: true,
                      toolset: {
                        name: part.toolset_name,
                        memberName: part.name
                      },
                      ...callerInfo && { caller: callerInfo }
                    };
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: customToolName
                    });
                  } else {
                    const callerInfo = getAnthropicCallerInfo(part.caller);
                    const hasNonEmptyInput = part.input && Object.keys(part.input).length > 0;
                    const initialInput = hasNonEmptyInput ? JSON.stringify(part.input) : "";
                    contentBlocks[value.index] = {
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: part.name,
                      input: initialInput,
                      firstDelta: initialInput.length === 0,
                      ...callerInfo && { caller: callerInfo }
                    };
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: part.name
                    });
                  }
                  return;
                }
                case "server_tool_use": {
                  const callerInfo = getAnthropicCallerInfo(part.caller);
                  if ([
                    "web_fetch",
                    "web_search",
                    // code execution 20250825:
                    "code_execution",
                    // code execution 20250825 text editor:
                    "text_editor_code_execution",
                    // code execution 20250825 bash:
                    "bash_code_execution"
                  ].includes(part.name)) {
                    const providerToolName = part.name === "text_editor_code_execution" || part.name === "bash_code_execution" ? "code_execution" : part.name;
                    const providerToolInputType = part.name === "text_editor_code_execution" || part.name === "bash_code_execution" ? part.name : part.name === "code_execution" ? "programmatic-tool-call" : void 0;
                    const customToolName = toolNameMapping.toCustomToolName(providerToolName);
                    const finalInput = part.input != null && typeof part.input === "object" && Object.keys(part.input).length > 0 ? JSON.stringify(part.input) : "";
                    contentBlocks[value.index] = {
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: customToolName,
                      input: finalInput,
                      providerExecuted: true,
                      // Specific 'web_fetch' or 'web_search' tools may need code execution, which the Anthropic API
                      // implicitly allows. In this scenario, we need to allow 'code_execution' tool calls even if the
                      // tool was not explicitly provided. We therefore bypass the general validation by marking the
                      // tool as dynamic.
                      ...markCodeExecutionDynamic && providerToolName === "code_execution" ? { dynamic: true } : {},
                      firstDelta: finalInput.length === 0,
                      providerToolName,
                      providerToolInputType,
                      ...callerInfo && { caller: callerInfo }
                    };
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: customToolName,
                      providerExecuted: true,
                      // Specific 'web_fetch' or 'web_search' tools may need code execution, which the Anthropic API
                      // implicitly allows. In this scenario, we need to allow 'code_execution' tool calls even if the
                      // tool was not explicitly provided. We therefore bypass the general validation by marking the
                      // tool as dynamic.
                      ...markCodeExecutionDynamic && providerToolName === "code_execution" ? { dynamic: true } : {}
                    });
                  } else if (part.name === "tool_search_tool_regex" || part.name === "tool_search_tool_bm25") {
                    serverToolCalls[part.id] = part.name;
                    const customToolName = toolNameMapping.toCustomToolName(
                      part.name
                    );
                    contentBlocks[value.index] = {
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: customToolName,
                      input: "",
                      providerExecuted: true,
                      firstDelta: true,
                      providerToolName: part.name,
                      ...callerInfo && { caller: callerInfo }
                    };
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: customToolName,
                      providerExecuted: true
                    });
                  } else if (part.name === "advisor") {
                    const customToolName = toolNameMapping.toCustomToolName("advisor");
                    contentBlocks[value.index] = {
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: customToolName,
                      input: "{}",
                      providerExecuted: true,
                      firstDelta: true,
                      providerToolName: part.name,
                      ...callerInfo && { caller: callerInfo }
                    };
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: customToolName,
                      providerExecuted: true
                    });
                  }
                  return;
                }
                case "web_fetch_tool_result": {
                  if (part.content.type === "web_fetch_result") {
                    citationDocuments.push({
                      title: (_a2 = part.content.content.title) != null ? _a2 : part.content.url,
                      mediaType: part.content.content.source.media_type
                    });
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("web_fetch"),
                      result: {
                        type: "web_fetch_result",
                        url: part.content.url,
                        retrievedAt: part.content.retrieved_at,
                        content: {
                          type: part.content.content.type,
                          title: part.content.content.title,
                          citations: part.content.content.citations,
                          source: {
                            type: part.content.content.source.type,
                            mediaType: part.content.content.source.media_type,
                            data: part.content.content.source.data
                          }
                        }
                      },
                      ...getAnthropicCallerMetadata(part.caller)
                    });
                  } else if (part.content.type === "web_fetch_tool_result_error") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("web_fetch"),
                      isError: true,
                      result: {
                        type: "web_fetch_tool_result_error",
                        errorCode: part.content.error_code
                      },
                      ...getAnthropicCallerMetadata(part.caller)
                    });
                  }
                  return;
                }
                case "web_search_tool_result": {
                  if (Array.isArray(part.content)) {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("web_search"),
                      result: part.content.map((result) => {
                        var _a3;
                        return {
                          url: result.url,
                          title: result.title,
                          pageAge: (_a3 = result.page_age) != null ? _a3 : null,
                          encryptedContent: result.encrypted_content,
                          type: result.type
                        };
                      }),
                      ...getAnthropicCallerMetadata(part.caller)
                    });
                    for (const result of part.content) {
                      controller.enqueue({
                        type: "source",
                        sourceType: "url",
                        id: generateId3(),
                        url: result.url,
                        title: result.title,
                        providerMetadata: {
                          anthropic: {
                            pageAge: (_b2 = result.page_age) != null ? _b2 : null
                          }
                        }
                      });
                    }
                  } else {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("web_search"),
                      isError: true,
                      result: {
                        type: "web_search_tool_result_error",
                        errorCode: part.content.error_code
                      },
                      ...getAnthropicCallerMetadata(part.caller)
                    });
                  }
                  return;
                }
                // code execution 20250522:
                case "code_execution_tool_result": {
                  if (part.content.type === "code_execution_result") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("code_execution"),
                      result: {
                        type: part.content.type,
                        stdout: part.content.stdout,
                        stderr: part.content.stderr,
                        return_code: part.content.return_code,
                        content: (_c = part.content.content) != null ? _c : []
                      }
                    });
                  } else if (part.content.type === "encrypted_code_execution_result") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("code_execution"),
                      result: {
                        type: part.content.type,
                        encrypted_stdout: part.content.encrypted_stdout,
                        stderr: part.content.stderr,
                        return_code: part.content.return_code,
                        content: (_d = part.content.content) != null ? _d : []
                      }
                    });
                  } else if (part.content.type === "code_execution_tool_result_error") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName("code_execution"),
                      isError: true,
                      result: {
                        type: "code_execution_tool_result_error",
                        errorCode: part.content.error_code
                      }
                    });
                  }
                  return;
                }
                // code execution 20250825:
                case "bash_code_execution_tool_result":
                case "text_editor_code_execution_tool_result": {
                  controller.enqueue({
                    type: "tool-result",
                    toolCallId: part.tool_use_id,
                    toolName: toolNameMapping.toCustomToolName("code_execution"),
                    result: part.content
                  });
                  return;
                }
                // tool search tool results:
                case "tool_search_tool_result": {
                  let providerToolName = serverToolCalls[part.tool_use_id];
                  if (providerToolName == null) {
                    const bm25CustomName = toolNameMapping.toCustomToolName(
                      "tool_search_tool_bm25"
                    );
                    const regexCustomName = toolNameMapping.toCustomToolName(
                      "tool_search_tool_regex"
                    );
                    if (bm25CustomName !== "tool_search_tool_bm25") {
                      providerToolName = "tool_search_tool_bm25";
                    } else if (regexCustomName !== "tool_search_tool_regex") {
                      providerToolName = "tool_search_tool_regex";
                    } else {
                      providerToolName = "tool_search_tool_regex";
                    }
                  }
                  if (part.content.type === "tool_search_tool_search_result") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName(providerToolName),
                      result: part.content.tool_references.map((ref) => ({
                        type: ref.type,
                        toolName: ref.tool_name
                      }))
                    });
                  } else {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: toolNameMapping.toCustomToolName(providerToolName),
                      isError: true,
                      result: {
                        type: "tool_search_tool_result_error",
                        errorCode: part.content.error_code
                      }
                    });
                  }
                  return;
                }
                // advisor results for advisor_20260301:
                // arrives fully formed in a single content_block_start (no deltas).
                case "advisor_tool_result": {
                  const advisorToolName = toolNameMapping.toCustomToolName("advisor");
                  if (part.content.type === "advisor_result") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: advisorToolName,
                      result: {
                        type: "advisor_result",
                        text: part.content.text
                      }
                    });
                  } else if (part.content.type === "advisor_redacted_result") {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: advisorToolName,
                      result: {
                        type: "advisor_redacted_result",
                        encryptedContent: part.content.encrypted_content
                      }
                    });
                  } else {
                    controller.enqueue({
                      type: "tool-result",
                      toolCallId: part.tool_use_id,
                      toolName: advisorToolName,
                      isError: true,
                      result: {
                        type: "advisor_tool_result_error",
                        errorCode: part.content.error_code
                      }
                    });
                  }
                  return;
                }
                case "mcp_tool_use": {
                  mcpToolCalls[part.id] = {
                    type: "tool-call",
                    toolCallId: part.id,
                    toolName: part.name,
                    input: JSON.stringify(part.input),
                    providerExecuted: true,
                    dynamic: true,
                    providerMetadata: {
                      anthropic: {
                        type: "mcp-tool-use",
                        serverName: part.server_name
                      }
                    }
                  };
                  controller.enqueue(mcpToolCalls[part.id]);
                  return;
                }
                case "mcp_tool_result": {
                  controller.enqueue({
                    type: "tool-result",
                    toolCallId: part.tool_use_id,
                    toolName: mcpToolCalls[part.tool_use_id].toolName,
                    isError: part.is_error,
                    result: part.content,
                    dynamic: true,
                    providerMetadata: mcpToolCalls[part.tool_use_id].providerMetadata
                  });
                  return;
                }
                default: {
                  const _exhaustiveCheck = contentBlockType;
                  throw new Error(
                    `Unsupported content block type: ${_exhaustiveCheck}`
                  );
                }
              }
            }
            case "content_block_stop": {
              if (contentBlocks[value.index] != null) {
                const contentBlock = contentBlocks[value.index];
                switch (contentBlock.type) {
                  case "text": {
                    controller.enqueue(
                      createTextEnd(
                        String(value.index),
                        contentBlock.citations
                      )
                    );
                    break;
                  }
                  case "reasoning": {
                    controller.enqueue({
                      type: "reasoning-end",
                      id: String(value.index)
                    });
                    break;
                  }
                  case "tool-call":
                    const isJsonResponseTool = usesJsonResponseTool && contentBlock.toolName === "json";
                    if (!isJsonResponseTool) {
                      if (contentBlock.toolset != null) {
                        let memberInput = {};
                        try {
                          memberInput = contentBlock.input === "" ? {} : secureJsonParse(contentBlock.input);
                        } catch (e) {
                          memberInput = void 0;
                        }
                        contentBlock.input = memberInput === void 0 ? contentBlock.input : JSON.stringify(
                          toToolsetMemberInput({
                            memberName: contentBlock.toolset.memberName,
                            input: memberInput
                          })
                        );
                        controller.enqueue({
                          type: "tool-input-delta",
                          id: contentBlock.toolCallId,
                          delta: contentBlock.input
                        });
                      }
                      controller.enqueue({
                        type: "tool-input-end",
                        id: contentBlock.toolCallId
                      });
                      let finalInput = contentBlock.input === "" ? "{}" : contentBlock.input;
                      if (contentBlock.providerToolName === "code_execution") {
                        try {
                          const parsed = secureJsonParse(finalInput);
                          if (parsed != null && typeof parsed === "object" && "code" in parsed && !("type" in parsed)) {
                            finalInput = JSON.stringify({
                              type: "programmatic-tool-call",
                              ...parsed
                            });
                          }
                        } catch (e) {
                        }
                      }
                      controller.enqueue({
                        type: "tool-call",
                        toolCallId: contentBlock.toolCallId,
                        toolName: contentBlock.toolName,
                        input: finalInput,
                        providerExecuted: contentBlock.providerExecuted,
                        // Specific 'web_fetch' or 'web_search' tools may need code execution, which the Anthropic API
                        // implicitly allows. In this scenario, we need to allow 'code_execution' tool calls even if the
                        // tool was not explicitly provided. We therefore bypass the general validation by marking the
                        // tool as dynamic.
                        ...markCodeExecutionDynamic && contentBlock.providerToolName === "code_execution" ? { dynamic: true } : {},
                        ...(contentBlock.caller || contentBlock.toolset) && {
                          providerMetadata: {
                            anthropic: {
                              ...contentBlock.toolset && {
                                toolsetName: contentBlock.toolset.name
                              },
                              ...contentBlock.caller && {
                                caller: contentBlock.caller
                              }
                            }
                          }
                        }
                      });
                    }
                    break;
                }
                delete contentBlocks[value.index];
              }
              blockType = void 0;
              return;
            }
            case "content_block_delta": {
              const deltaType = value.delta.type;
              switch (deltaType) {
                case "text_delta": {
                  if (usesJsonResponseTool) {
                    const entry = heldBackTextByIndex.get(value.index);
                    if (entry != null) {
                      entry.text += value.delta.text;
                    }
                    return;
                  }
                  controller.enqueue({
                    type: "text-delta",
                    id: String(value.index),
                    delta: value.delta.text
                  });
                  return;
                }
                case "thinking_delta": {
                  controller.enqueue({
                    type: "reasoning-delta",
                    id: String(value.index),
                    delta: value.delta.thinking
                  });
                  return;
                }
                case "signature_delta": {
                  if (blockType === "thinking") {
                    controller.enqueue({
                      type: "reasoning-delta",
                      id: String(value.index),
                      delta: "",
                      providerMetadata: {
                        anthropic: {
                          signature: value.delta.signature
                        }
                      }
                    });
                  }
                  return;
                }
                case "compaction_delta": {
                  if (value.delta.content != null) {
                    controller.enqueue({
                      type: "text-delta",
                      id: String(value.index),
                      delta: value.delta.content
                    });
                  }
                  return;
                }
                case "input_json_delta": {
                  const contentBlock = contentBlocks[value.index];
                  let delta = value.delta.partial_json;
                  if (delta.length === 0) {
                    return;
                  }
                  if (isJsonResponseFromTool) {
                    if ((contentBlock == null ? void 0 : contentBlock.type) !== "text") {
                      return;
                    }
                    controller.enqueue({
                      type: "text-delta",
                      id: String(value.index),
                      delta
                    });
                  } else {
                    if ((contentBlock == null ? void 0 : contentBlock.type) !== "tool-call") {
                      return;
                    }
                    if (contentBlock.toolset != null) {
                      contentBlock.input += delta;
                      return;
                    }
                    if (contentBlock.firstDelta && contentBlock.providerToolInputType != null) {
                      delta = `{"type": "${contentBlock.providerToolInputType}",${delta.substring(1)}`;
                    }
                    controller.enqueue({
                      type: "tool-input-delta",
                      id: contentBlock.toolCallId,
                      delta
                    });
                    contentBlock.input += delta;
                    contentBlock.firstDelta = false;
                  }
                  return;
                }
                case "citations_delta": {
                  const citation = value.delta.citation;
                  const contentBlock = contentBlocks[value.index];
                  if (citation.type === "web_search_result_location") {
                    if ((contentBlock == null ? void 0 : contentBlock.type) === "text") {
                      contentBlock.citations.push(citation);
                    }
                    (_e = heldBackTextByIndex.get(value.index)) == null ? void 0 : _e.citations.push(citation);
                  }
                  const source = createCitationSource(
                    citation,
                    citationDocuments,
                    generateId3
                  );
                  if (source) {
                    controller.enqueue(source);
                  }
                  return;
                }
                default: {
                  const _exhaustiveCheck = deltaType;
                  throw new Error(
                    `Unsupported delta type: ${_exhaustiveCheck}`
                  );
                }
              }
            }
            case "message_start": {
              if (isMessageOpen) {
                if (activeMessageId === value.message.id) {
                  return;
                }
                hasInvalidMessageSequence = true;
                controller.enqueue({
                  type: "error",
                  error: new InvalidResponseDataError({
                    data: value,
                    message: `Received message_start for message ${JSON.stringify(value.message.id)} while message ${JSON.stringify(activeMessageId)} is still open.`
                  })
                });
                return;
              }
              isMessageOpen = true;
              activeMessageId = value.message.id;
              heldBackTextByIndex.clear();
              usage.input_tokens = value.message.usage.input_tokens;
              usage.cache_read_input_tokens = (_f = value.message.usage.cache_read_input_tokens) != null ? _f : 0;
              usage.cache_creation_input_tokens = (_g = value.message.usage.cache_creation_input_tokens) != null ? _g : 0;
              rawUsage = {
                ...value.message.usage
              };
              cacheCreationInputTokens = (_h = value.message.usage.cache_creation_input_tokens) != null ? _h : null;
              if (value.message.input_transformations != null) {
                inputTransformations = value.message.input_transformations;
              }
              if (value.message.container != null) {
                container = {
                  expiresAt: value.message.container.expires_at,
                  id: value.message.container.id,
                  skills: null
                };
              }
              if (value.message.stop_reason != null) {
                finishReason = {
                  unified: mapAnthropicStopReason({
                    finishReason: value.message.stop_reason,
                    isJsonResponseFromTool
                  }),
                  raw: value.message.stop_reason
                };
              }
              controller.enqueue({
                type: "response-metadata",
                id: (_i = value.message.id) != null ? _i : void 0,
                modelId: (_j = value.message.model) != null ? _j : void 0
              });
              if (value.message.content != null) {
                for (let contentIndex = 0; contentIndex < value.message.content.length; contentIndex++) {
                  const part = value.message.content[contentIndex];
                  if (part.type === "tool_use") {
                    const callerInfo = getAnthropicCallerInfo(part.caller);
                    controller.enqueue({
                      type: "tool-input-start",
                      id: part.id,
                      toolName: part.name
                    });
                    const inputStr = JSON.stringify((_k = part.input) != null ? _k : {});
                    controller.enqueue({
                      type: "tool-input-delta",
                      id: part.id,
                      delta: inputStr
                    });
                    controller.enqueue({
                      type: "tool-input-end",
                      id: part.id
                    });
                    controller.enqueue({
                      type: "tool-call",
                      toolCallId: part.id,
                      toolName: part.name,
                      input: inputStr,
                      ...callerInfo && {
                        providerMetadata: {
                          anthropic: {
                            caller: callerInfo
                          }
                        }
                      }
                    });
                  }
                }
              }
              return;
            }
            case "message_delta": {
              if (value.usage.input_tokens != null && usage.input_tokens !== value.usage.input_tokens) {
                usage.input_tokens = value.usage.input_tokens;
              }
              usage.output_tokens = value.usage.output_tokens;
              if (value.usage.output_tokens_details != null) {
                usage.output_tokens_details = value.usage.output_tokens_details;
              }
              if (value.usage.cache_read_input_tokens != null) {
                usage.cache_read_input_tokens = value.usage.cache_read_input_tokens;
              }
              if (value.usage.cache_creation_input_tokens != null) {
                usage.cache_creation_input_tokens = value.usage.cache_creation_input_tokens;
                cacheCreationInputTokens = value.usage.cache_creation_input_tokens;
              }
              if (value.usage.iterations != null) {
                usage.iterations = value.usage.iterations;
              }
              finishReason = {
                unified: mapAnthropicStopReason({
                  finishReason: value.delta.stop_reason,
                  isJsonResponseFromTool
                }),
                raw: (_l = value.delta.stop_reason) != null ? _l : void 0
              };
              stopSequence = (_m = value.delta.stop_sequence) != null ? _m : null;
              stopDetails = mapAnthropicStopDetails(value.delta.stop_details);
              container = value.delta.container != null ? {
                expiresAt: value.delta.container.expires_at,
                id: value.delta.container.id,
                skills: (_o = (_n = value.delta.container.skills) == null ? void 0 : _n.map((skill) => ({
                  type: skill.type,
                  skillId: skill.skill_id,
                  version: skill.version
                }))) != null ? _o : null
              } : null;
              if (value.context_management) {
                contextManagement = mapAnthropicResponseContextManagement(
                  value.context_management
                );
              }
              if (value.input_transformations != null) {
                inputTransformations = value.input_transformations;
              }
              if (value.delta.safeguard_results != null) {
                safeguardResults = value.delta.safeguard_results;
              }
              rawUsage = {
                ...rawUsage,
                ...value.usage
              };
              return;
            }
            case "message_stop": {
              isMessageOpen = false;
              activeMessageId = void 0;
              const anthropicMetadata = {
                usage: rawUsage != null ? rawUsage : null,
                cacheCreationInputTokens,
                stopSequence,
                ...stopDetails != null ? { stopDetails } : {},
                ...inputTransformations != null ? { inputTransformations } : {},
                ...safeguardResults != null ? { safeguardResults } : {},
                iterations: usage.iterations ? usage.iterations.map(
                  (iter) => ({
                    type: iter.type,
                    ...iter.model != null ? { model: iter.model } : {},
                    inputTokens: iter.input_tokens,
                    outputTokens: iter.output_tokens,
                    ...iter.cache_creation_input_tokens ? {
                      cacheCreationInputTokens: iter.cache_creation_input_tokens
                    } : {},
                    ...iter.cache_read_input_tokens ? {
                      cacheReadInputTokens: iter.cache_read_input_tokens
                    } : {}
                  })
                ) : null,
                container,
                contextManagement
              };
              const providerMetadata = {
                anthropic: anthropicMetadata
              };
              if (usedCustomProviderKey && providerOptionsName !== "anthropic") {
                providerMetadata[providerOptionsName] = anthropicMetadata;
              }
              if (!isJsonResponseFromTool && !isContinuationStopReason(finishReason.raw)) {
                for (const { id, text, citations } of heldBackText) {
                  if (text.length === 0) continue;
                  controller.enqueue({ type: "text-start", id });
                  controller.enqueue({ type: "text-delta", id, delta: text });
                  controller.enqueue(createTextEnd(id, citations));
                }
              }
              heldBackText.length = 0;
              controller.enqueue({
                type: "finish",
                finishReason,
                usage: convertAnthropicMessagesUsage({ usage, rawUsage }),
                providerMetadata
              });
              return;
            }
            case "error": {
              controller.enqueue({ type: "error", error: value.error });
              return;
            }
            default: {
              const _exhaustiveCheck = value;
              throw new Error(`Unsupported chunk type: ${_exhaustiveCheck}`);
            }
          }
        }
      })
    );
    const [streamForFirstChunk, streamForConsumer] = transformedStream.tee();
    const firstChunkReader = streamForFirstChunk.getReader();
    try {
      await firstChunkReader.read();
      let result = await firstChunkReader.read();
      if (((_a = result.value) == null ? void 0 : _a.type) === "raw") {
        result = await firstChunkReader.read();
      }
      if (((_b = result.value) == null ? void 0 : _b.type) === "error") {
        const error = result.value.error;
        throw new APICallError({
          message: error.message,
          url,
          requestBodyValues: body,
          statusCode: error.type === "overloaded_error" ? 529 : 500,
          responseHeaders,
          responseBody: JSON.stringify(error),
          isRetryable: error.type === "overloaded_error"
        });
      }
    } finally {
      firstChunkReader.cancel().catch(() => {
      });
      firstChunkReader.releaseLock();
    }
    return {
      stream: streamForConsumer,
      request: { body },
      response: { headers: responseHeaders }
    };
  }
};
function getModelCapabilities(modelId) {
  if (modelId.includes("claude-sonnet-5-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: true,
      rejectsBudgetThinking: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: true,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-opus-5-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: true,
      rejectsBudgetThinking: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-haiku-5-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: true,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-opus-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-fable-5-1")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: true,
      rejectsBudgetThinking: true,
      rejectsForcedToolUse: true,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-fable-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: true,
      rejectsBudgetThinking: true,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-opus-4-8") || modelId.includes("claude-opus-4-7") || modelId.includes("claude-sonnet-5")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-sonnet-4-6") || modelId.includes("claude-opus-4-6")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-sonnet-4-5") || modelId.includes("claude-opus-4-5") || modelId.includes("claude-haiku-4-5")) {
    return {
      maxOutputTokens: 64e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-opus-4-1")) {
    return {
      maxOutputTokens: 32e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-sonnet-4-")) {
    return {
      maxOutputTokens: 64e3,
      supportsStructuredOutput: false,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-opus-4-")) {
    return {
      maxOutputTokens: 32e3,
      supportsStructuredOutput: false,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (modelId.includes("claude-3-haiku")) {
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: true
    };
  } else if (/claude-(?:instant(?:-|$)|v?2(?=$|[-.:])|3(?=$|[-.]))/.test(modelId)) {
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false
    };
  } else if (modelId.includes("claude-")) {
    return {
      maxOutputTokens: 128e3,
      supportsStructuredOutput: true,
      rejectsSamplingParameters: true,
      rejectsThinkingDisabledAboveHighEffort: true,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false
    };
  } else {
    return {
      maxOutputTokens: 4096,
      supportsStructuredOutput: false,
      rejectsSamplingParameters: false,
      rejectsThinkingDisabledAboveHighEffort: false,
      rejectsThinkingDisabled: false,
      rejectsBudgetThinking: false,
      rejectsForcedToolUse: false,
      supportsBetweenToolsThinking: false,
      isKnownModel: false
    };
  }
}
function hasWebTool20260209WithoutCodeExecution(tools) {
  if (!tools) {
    return false;
  }
  let hasWebTool20260209 = false;
  let hasCodeExecutionTool = false;
  for (const tool of tools) {
    if ("type" in tool && (tool.type === "web_fetch_20260209" || tool.type === "web_search_20260209")) {
      hasWebTool20260209 = true;
      continue;
    }
    if ("name" in tool && tool.name === "code_execution") {
      hasCodeExecutionTool = true;
      break;
    }
  }
  return hasWebTool20260209 && !hasCodeExecutionTool;
}
function mapAnthropicResponseContextManagement(contextManagement) {
  return contextManagement ? {
    appliedEdits: contextManagement.applied_edits.map((edit) => {
      const strategy = edit.type;
      switch (strategy) {
        case "clear_tool_uses_20250919":
          return {
            type: edit.type,
            clearedToolUses: edit.cleared_tool_uses,
            clearedInputTokens: edit.cleared_input_tokens
          };
        case "clear_thinking_20251015":
          return {
            type: edit.type,
            clearedThinkingTurns: edit.cleared_thinking_turns,
            clearedInputTokens: edit.cleared_input_tokens
          };
        case "compact_20260112":
          return {
            type: edit.type
          };
      }
    }).filter((edit) => edit !== void 0)
  } : null;
}
function mapAnthropicStopDetails(stopDetails) {
  if (stopDetails == null) {
    return void 0;
  }
  return {
    type: stopDetails.type,
    ...stopDetails.category != null ? { category: stopDetails.category } : {},
    ...stopDetails.explanation != null ? { explanation: stopDetails.explanation } : {},
    ...stopDetails.recommended_model != null ? { recommendedModel: stopDetails.recommended_model } : {}
  };
}
var bash_20241022InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.string(),
      restart: external_exports.boolean().optional()
    })
  )
);
var bash_20241022 = createProviderToolFactory({
  id: "anthropic.bash_20241022",
  inputSchema: bash_20241022InputSchema
});
var bash_20250124InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.string(),
      restart: external_exports.boolean().optional()
    })
  )
);
var bash_20250124 = createProviderToolFactory({
  id: "anthropic.bash_20250124",
  inputSchema: bash_20250124InputSchema
});
var computer_20241022InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      action: external_exports.enum([
        "key",
        "type",
        "mouse_move",
        "left_click",
        "left_click_drag",
        "right_click",
        "middle_click",
        "double_click",
        "screenshot",
        "cursor_position"
      ]),
      coordinate: external_exports.array(external_exports.number().int()).optional(),
      text: external_exports.string().optional()
    })
  )
);
var computer_20241022 = createProviderToolFactory({
  id: "anthropic.computer_20241022",
  inputSchema: computer_20241022InputSchema
});
var computer_20250124InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      action: external_exports.enum([
        "key",
        "hold_key",
        "type",
        "cursor_position",
        "mouse_move",
        "left_mouse_down",
        "left_mouse_up",
        "left_click",
        "left_click_drag",
        "right_click",
        "middle_click",
        "double_click",
        "triple_click",
        "scroll",
        "wait",
        "screenshot"
      ]),
      coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      duration: external_exports.number().optional(),
      scroll_amount: external_exports.number().optional(),
      scroll_direction: external_exports.enum(["up", "down", "left", "right"]).optional(),
      start_coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      text: external_exports.string().optional()
    })
  )
);
var computer_20250124 = createProviderToolFactory({
  id: "anthropic.computer_20250124",
  inputSchema: computer_20250124InputSchema
});
var computer_20251124InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      action: external_exports.enum([
        "key",
        "hold_key",
        "type",
        "cursor_position",
        "mouse_move",
        "left_mouse_down",
        "left_mouse_up",
        "left_click",
        "left_click_drag",
        "right_click",
        "middle_click",
        "double_click",
        "triple_click",
        "scroll",
        "wait",
        "screenshot",
        "zoom"
      ]),
      coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      duration: external_exports.number().optional(),
      region: external_exports.tuple([
        external_exports.number().int(),
        external_exports.number().int(),
        external_exports.number().int(),
        external_exports.number().int()
      ]).optional(),
      scroll_amount: external_exports.number().optional(),
      scroll_direction: external_exports.enum(["up", "down", "left", "right"]).optional(),
      start_coordinate: external_exports.tuple([external_exports.number().int(), external_exports.number().int()]).optional(),
      text: external_exports.string().optional()
    })
  )
);
var computer_20251124 = createProviderToolFactory({
  id: "anthropic.computer_20251124",
  inputSchema: computer_20251124InputSchema
});
var memory_20250818InputSchema = lazySchema(
  () => zodSchema(
    external_exports.discriminatedUnion("command", [
      external_exports.object({
        command: external_exports.literal("view"),
        path: external_exports.string(),
        view_range: external_exports.tuple([external_exports.number(), external_exports.number()]).optional()
      }),
      external_exports.object({
        command: external_exports.literal("create"),
        path: external_exports.string(),
        file_text: external_exports.string()
      }),
      external_exports.object({
        command: external_exports.literal("str_replace"),
        path: external_exports.string(),
        old_str: external_exports.string(),
        new_str: external_exports.string()
      }),
      external_exports.object({
        command: external_exports.literal("insert"),
        path: external_exports.string(),
        insert_line: external_exports.number(),
        insert_text: external_exports.string()
      }),
      external_exports.object({
        command: external_exports.literal("delete"),
        path: external_exports.string()
      }),
      external_exports.object({
        command: external_exports.literal("rename"),
        old_path: external_exports.string(),
        new_path: external_exports.string()
      })
    ])
  )
);
var memory_20250818 = createProviderToolFactory({
  id: "anthropic.memory_20250818",
  inputSchema: memory_20250818InputSchema
});
var textEditor_20241022InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.enum(["view", "create", "str_replace", "insert", "undo_edit"]),
      path: external_exports.string(),
      file_text: external_exports.string().optional(),
      insert_line: external_exports.number().int().optional(),
      new_str: external_exports.string().optional(),
      insert_text: external_exports.string().optional(),
      old_str: external_exports.string().optional(),
      view_range: external_exports.array(external_exports.number().int()).optional()
    })
  )
);
var textEditor_20241022 = createProviderToolFactory({
  id: "anthropic.text_editor_20241022",
  inputSchema: textEditor_20241022InputSchema
});
var textEditor_20250124InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.enum(["view", "create", "str_replace", "insert", "undo_edit"]),
      path: external_exports.string(),
      file_text: external_exports.string().optional(),
      insert_line: external_exports.number().int().optional(),
      new_str: external_exports.string().optional(),
      insert_text: external_exports.string().optional(),
      old_str: external_exports.string().optional(),
      view_range: external_exports.array(external_exports.number().int()).optional()
    })
  )
);
var textEditor_20250124 = createProviderToolFactory({
  id: "anthropic.text_editor_20250124",
  inputSchema: textEditor_20250124InputSchema
});
var textEditor_20250429InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      command: external_exports.enum(["view", "create", "str_replace", "insert"]),
      path: external_exports.string(),
      file_text: external_exports.string().optional(),
      insert_line: external_exports.number().int().optional(),
      new_str: external_exports.string().optional(),
      insert_text: external_exports.string().optional(),
      old_str: external_exports.string().optional(),
      view_range: external_exports.array(external_exports.number().int()).optional()
    })
  )
);
var textEditor_20250429 = createProviderToolFactory({
  id: "anthropic.text_editor_20250429",
  inputSchema: textEditor_20250429InputSchema
});
var toolSearchBm25_20251119OutputSchema = lazySchema(
  () => zodSchema(
    external_exports.array(
      external_exports.object({
        type: external_exports.literal("tool_reference"),
        toolName: external_exports.string()
      })
    )
  )
);
var toolSearchBm25_20251119InputSchema = lazySchema(
  () => zodSchema(
    external_exports.object({
      /**
       * A natural language query to search for tools.
       * Claude will use BM25 text search to find relevant tools.
       */
      query: external_exports.string(),
      /**
       * Maximum number of tools to return. Optional.
       */
      limit: external_exports.number().optional()
    })
  )
);
var factory11 = createProviderToolFactoryWithOutputSchema({
  id: "anthropic.tool_search_bm25_20251119",
  inputSchema: toolSearchBm25_20251119InputSchema,
  outputSchema: toolSearchBm25_20251119OutputSchema,
  supportsDeferredResults: true
});
var toolSearchBm25_20251119 = (args = {}) => {
  return factory11(args);
};
var anthropicTools = {
  /**
   * Pairs a faster executor model with a higher-intelligence advisor model
   * that provides strategic guidance mid-generation.
   *
   * The advisor lets a faster, lower-cost executor model consult a
   * higher-intelligence advisor model server-side. The advisor reads the
   * executor's full transcript and produces a plan or course correction;
   * the executor continues with the task, informed by the advice. All of
   * this happens inside a single `/v1/messages` request.
   *
   * Beta header `advisor-tool-2026-03-01` is added automatically when this
   * tool is included.
   *
   * Multi-turn conversations: pass the full assistant content (including
   * `advisor_tool_result` blocks) back to the API on subsequent turns. If
   * you omit the advisor tool from `tools` on a follow-up turn while the
   * message history still contains `advisor_tool_result` blocks, the API
   * returns a `400 invalid_request_error`.
   *
   * Supported executor models: Claude Haiku 4.5, Sonnet 4.6, Opus 4.6,
   * Opus 4.7. The advisor must be at least as capable as the executor.
   *
   * @param model - The advisor model ID (required), e.g. `"claude-opus-4-8"`.
   * @param maxUses - Maximum advisor calls per request (per-request cap).
   * @param caching - Enables prompt caching for the advisor's transcript
   * across calls within a conversation. Worthwhile from ~3 advisor calls
   * per conversation.
   */
  advisor_20260301,
  /**
   * The bash tool enables Claude to execute shell commands in a persistent bash session,
   * allowing system operations, script execution, and command-line automation.
   *
   * Image results are supported.
   */
  bash_20241022,
  /**
   * The bash tool enables Claude to execute shell commands in a persistent bash session,
   * allowing system operations, script execution, and command-line automation.
   *
   * Image results are supported.
   */
  bash_20250124,
  /**
   * Claude can analyze data, create visualizations, perform complex calculations,
   * run system commands, create and edit files, and process uploaded files directly within
   * the API conversation.
   *
   * The code execution tool allows Claude to run Bash commands and manipulate files,
   * including writing code, in a secure, sandboxed environment.
   */
  codeExecution_20250522,
  /**
   * Claude can analyze data, create visualizations, perform complex calculations,
   * run system commands, create and edit files, and process uploaded files directly within
   * the API conversation.
   *
   * The code execution tool allows Claude to run both Python and Bash commands and manipulate files,
   * including writing code, in a secure, sandboxed environment.
   *
   * This is the latest version with enhanced Bash support and file operations.
   */
  codeExecution_20250825,
  /**
   * Claude can analyze data, create visualizations, perform complex calculations,
   * run system commands, create and edit files, and process uploaded files directly within
   * the API conversation.
   *
   * The code execution tool allows Claude to run both Python and Bash commands and manipulate files,
   * including writing code, in a secure, sandboxed environment.
   *
   * This is the recommended version. Does not require a beta header.
   *
   * Supported models: Claude Opus 4.6, Sonnet 4.6, Sonnet 4.5, Opus 4.5
   */
  codeExecution_20260120,
  /**
   * Claude can interact with computer environments through the computer use tool, which
   * provides screenshot capabilities and mouse/keyboard control for autonomous desktop interaction.
   *
   * Image results are supported.
   *
   * @param displayWidthPx - The width of the display being controlled by the model in pixels.
   * @param displayHeightPx - The height of the display being controlled by the model in pixels.
   * @param displayNumber - The display number to control (only relevant for X11 environments). If specified, the tool will be provided a display number in the tool definition.
   */
  computer_20241022,
  /**
   * Claude can interact with computer environments through the computer use tool, which
   * provides screenshot capabilities and mouse/keyboard control for autonomous desktop interaction.
   *
   * Image results are supported.
   *
   * @param displayWidthPx - The width of the display being controlled by the model in pixels.
   * @param displayHeightPx - The height of the display being controlled by the model in pixels.
   * @param displayNumber - The display number to control (only relevant for X11 environments). If specified, the tool will be provided a display number in the tool definition.
   */
  computer_20250124,
  /**
   * Claude can interact with computer environments through the computer use tool, which
   * provides screenshot capabilities and mouse/keyboard control for autonomous desktop interaction.
   *
   * This version adds the zoom action for detailed screen region inspection.
   *
   * Image results are supported.
   *
   * Supported models: Claude Opus 4.5
   *
   * @param displayWidthPx - The width of the display being controlled by the model in pixels.
   * @param displayHeightPx - The height of the display being controlled by the model in pixels.
   * @param displayNumber - The display number to control (only relevant for X11 environments). If specified, the tool will be provided a display number in the tool definition.
   * @param enableZoom - Enable zoom action. Set to true to allow Claude to zoom into specific screen regions. Default: false.
   */
  computer_20251124,
  /**
   * The computer toolset lets Claude control a computer through screenshots,
   * mouse, and keyboard. It replaces the versioned computer tools
   * (`computer_20251124` and earlier) on newer models.
   *
   * The API returns each computer action as its own `tool_use` block with
   * `toolset_name: 'computer'`. The AI SDK maps every member call to this tool
   * and exposes the member name as `action`, so `execute` receives the same
   * input shape as the older computer tools. Claude may return several actions
   * in one turn.
   *
   * Coordinates are always in the pixel space of the screenshots you return;
   * there are no display size parameters. Zoom is enabled by default.
   *
   * Does not require a beta header.
   *
   * Supported models: Claude Opus 5.5 (required; older computer tool types
   * are rejected), Opus 5, Sonnet 5, Fable 5, Fable 5.1, Opus 4.8.
   *
   * @param configs - Per-member settings keyed by member name, e.g.
   * `{ zoom: { enabled: false } }`. Omitted members keep their defaults.
   */
  computerToolset_20260801,
  /**
   * The memory tool enables Claude to store and retrieve information across conversations through a memory file directory.
   * Claude can create, read, update, and delete files that persist between sessions,
   * allowing it to build knowledge over time without keeping everything in the context window.
   * The memory tool operates client-side—you control where and how the data is stored through your own infrastructure.
   *
   * Supported models: Claude Sonnet 4.5, Claude Sonnet 4, Claude Opus 4.1, Claude Opus 4.
   */
  memory_20250818,
  /**
   * Claude can use an Anthropic-defined text editor tool to view and modify text files,
   * helping you debug, fix, and improve your code or other text documents. This allows Claude
   * to directly interact with your files, providing hands-on assistance rather than just suggesting changes.
   *
   * Supported models: Claude Sonnet 3.5
   */
  textEditor_20241022,
  /**
   * Claude can use an Anthropic-defined text editor tool to view and modify text files,
   * helping you debug, fix, and improve your code or other text documents. This allows Claude
   * to directly interact with your files, providing hands-on assistance rather than just suggesting changes.
   *
   * Supported models: Claude Sonnet 3.7
   */
  textEditor_20250124,
  /**
   * Claude can use an Anthropic-defined text editor tool to view and modify text files,
   * helping you debug, fix, and improve your code or other text documents. This allows Claude
   * to directly interact with your files, providing hands-on assistance rather than just suggesting changes.
   *
   * Note: This version does not support the "undo_edit" command.
   *
   * @deprecated Use textEditor_20250728 instead
   */
  textEditor_20250429,
  /**
   * Claude can use an Anthropic-defined text editor tool to view and modify text files,
   * helping you debug, fix, and improve your code or other text documents. This allows Claude
   * to directly interact with your files, providing hands-on assistance rather than just suggesting changes.
   *
   * Note: This version does not support the "undo_edit" command and adds optional max_characters parameter.
   *
   * Supported models: Claude Sonnet 4, Opus 4, and Opus 4.1
   *
   * @param maxCharacters - Optional maximum number of characters to view in the file
   */
  textEditor_20250728,
  /**
   * Creates a web fetch tool that gives Claude direct access to real-time web content.
   *
   * @param maxUses - The max_uses parameter limits the number of web fetches performed
   * @param allowedDomains - Only fetch from these domains
   * @param blockedDomains - Never fetch from these domains
   * @param citations - Unlike web search where citations are always enabled, citations are optional for web fetch. Set "citations": {"enabled": true} to enable Claude to cite specific passages from fetched documents.
   * @param maxContentTokens - The max_content_tokens parameter limits the amount of content that will be included in the context.
   */
  webFetch_20250910,
  /**
   * Creates a web fetch tool that gives Claude direct access to real-time web content.
   *
   * @param maxUses - The max_uses parameter limits the number of web fetches performed
   * @param allowedDomains - Only fetch from these domains
   * @param blockedDomains - Never fetch from these domains
   * @param citations - Unlike web search where citations are always enabled, citations are optional for web fetch. Set "citations": {"enabled": true} to enable Claude to cite specific passages from fetched documents.
   * @param maxContentTokens - The max_content_tokens parameter limits the amount of content that will be included in the context.
   */
  webFetch_20260209,
  /**
   * Creates a web search tool that gives Claude direct access to real-time web content.
   *
   * @param maxUses - Maximum number of web searches Claude can perform during the conversation.
   * @param allowedDomains - Optional list of domains that Claude is allowed to search.
   * @param blockedDomains - Optional list of domains that Claude should avoid when searching.
   * @param userLocation - Optional user location information to provide geographically relevant search results.
   */
  webSearch_20250305,
  /**
   * Creates a web search tool that gives Claude direct access to real-time web content.
   *
   * @param maxUses - Maximum number of web searches Claude can perform during the conversation.
   * @param allowedDomains - Optional list of domains that Claude is allowed to search.
   * @param blockedDomains - Optional list of domains that Claude should avoid when searching.
   * @param userLocation - Optional user location information to provide geographically relevant search results.
   */
  webSearch_20260209,
  /**
   * Creates a tool search tool that uses regex patterns to find tools.
   *
   * The tool search tool enables Claude to work with hundreds or thousands of tools
   * by dynamically discovering and loading them on-demand. Instead of loading all
   * tool definitions into the context window upfront, Claude searches your tool
   * catalog and loads only the tools it needs.
   *
   * Use `providerOptions: { anthropic: { deferLoading: true } }` on other tools
   * to mark them for deferred loading.
   *
   * Supported models: Claude Opus 4.5, Claude Sonnet 4.5
   */
  toolSearchRegex_20251119,
  /**
   * Creates a tool search tool that uses BM25 (natural language) to find tools.
   *
   * The tool search tool enables Claude to work with hundreds or thousands of tools
   * by dynamically discovering and loading them on-demand. Instead of loading all
   * tool definitions into the context window upfront, Claude searches your tool
   * catalog and loads only the tools it needs.
   *
   * Use `providerOptions: { anthropic: { deferLoading: true } }` on other tools
   * to mark them for deferred loading.
   *
   * Supported models: Claude Opus 4.5, Claude Sonnet 4.5
   */
  toolSearchBm25_20251119
};
var ANTHROPIC_API_URL = "https://api.anthropic.com";
var ANTHROPIC_API_VERSIONED_URL = `${ANTHROPIC_API_URL}/v1`;
function normalizeBaseURL(baseURL) {
  const baseURLWithoutTrailingSlash = withoutTrailingSlash(baseURL);
  return baseURLWithoutTrailingSlash === ANTHROPIC_API_URL ? ANTHROPIC_API_VERSIONED_URL : baseURLWithoutTrailingSlash;
}
function createAnthropic(options = {}) {
  var _a, _b;
  const baseURL = (_a = normalizeBaseURL(
    loadOptionalSetting({
      settingValue: options.baseURL,
      environmentVariableName: "ANTHROPIC_BASE_URL"
    })
  )) != null ? _a : ANTHROPIC_API_VERSIONED_URL;
  const providerName = (_b = options.name) != null ? _b : "anthropic.messages";
  if (options.apiKey && options.authToken) {
    throw new InvalidArgumentError({
      argument: "apiKey/authToken",
      message: "Both apiKey and authToken were provided. Please use only one authentication method."
    });
  }
  const getHeaders = () => {
    const authHeaders = options.authToken ? { Authorization: `Bearer ${options.authToken}` } : {
      "x-api-key": loadApiKey({
        apiKey: options.apiKey,
        environmentVariableName: "ANTHROPIC_API_KEY",
        description: "Anthropic"
      })
    };
    return withUserAgentSuffix(
      {
        "anthropic-version": "2023-06-01",
        ...authHeaders,
        ...options.headers
      },
      `ai-sdk/anthropic/${VERSION}`
    );
  };
  const createChatModel = (modelId) => {
    var _a2;
    return new AnthropicMessagesLanguageModel(modelId, {
      provider: providerName,
      baseURL,
      headers: getHeaders,
      fetch: options.fetch,
      generateId: (_a2 = options.generateId) != null ? _a2 : generateId,
      supportedUrls: () => ({
        "image/*": [/^https?:\/\/.*$/],
        "application/pdf": [/^https?:\/\/.*$/]
      })
    });
  };
  const provider = function(modelId) {
    if (new.target) {
      throw new Error(
        "The Anthropic model function cannot be called with the new keyword."
      );
    }
    return createChatModel(modelId);
  };
  provider.specificationVersion = "v3";
  provider.languageModel = createChatModel;
  provider.chat = createChatModel;
  provider.messages = createChatModel;
  provider.embeddingModel = (modelId) => {
    throw new NoSuchModelError({ modelId, modelType: "embeddingModel" });
  };
  provider.textEmbeddingModel = provider.embeddingModel;
  provider.imageModel = (modelId) => {
    throw new NoSuchModelError({ modelId, modelType: "imageModel" });
  };
  provider.tools = anthropicTools;
  return provider;
}
var anthropic = createAnthropic();
function forwardAnthropicContainerIdFromLastStep({
  steps
}) {
  var _a, _b, _c;
  for (let i = steps.length - 1; i >= 0; i--) {
    const containerId = (_c = (_b = (_a = steps[i].providerMetadata) == null ? void 0 : _a.anthropic) == null ? void 0 : _b.container) == null ? void 0 : _c.id;
    if (containerId) {
      return {
        providerOptions: {
          anthropic: {
            container: { id: containerId }
          }
        }
      };
    }
  }
  return void 0;
}
export {
  VERSION,
  anthropic,
  createAnthropic,
  forwardAnthropicContainerIdFromLastStep
};
