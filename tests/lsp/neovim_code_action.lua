-- Neovim 0.7+ headless: attach the built-in LSP client to `autoopt lsp`, wait for a
-- diagnostic, apply the first code action at it, write the file, quit (exit 1 on failure).
local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "autoopt",
    cmd = vim.fn.json_decode(os.getenv("AUTOOPT_LSP_CMD")),
    init_options = vim.fn.json_decode(os.getenv("AUTOOPT_LSP_OPTIONS")),
    root_dir = vim.fn.getcwd(),
  })
  assert(client_id, "the server did not start")
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local arrived = vim.wait(60000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  assert(arrived, "no diagnostics arrived")
  local diagnostic = vim.diagnostic.get(bufnr)[1]
  vim.api.nvim_win_set_cursor(0, { diagnostic.lnum + 1, diagnostic.col })

  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr) }
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 60000)
  local actions = assert(responses and responses[client_id], "no code action response").result
  local action = assert(actions and actions[1], "no code action")
  if not action.edit then
    local resolved = client.request_sync("codeAction/resolve", action, 60000, bufnr)
    action = assert(resolved and resolved.result, "codeAction/resolve failed")
  end
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or "utf-16")
  vim.cmd("write")
  print("applied: " .. action.title)
end

local ok, err = pcall(run)
if not ok then
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cquit")
end
vim.cmd("qall!")
