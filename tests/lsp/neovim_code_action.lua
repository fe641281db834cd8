-- Neovim 0.7+ headless, started with the config of docs/editors.md as its init file:
-- wait for the autoopt client that config attaches and for a diagnostic, apply the first
-- code action at it, write the file, quit (exit 1 on failure).
local function attached(bufnr)
  if vim.fn.has("nvim-0.8") == 1 then
    local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)({ bufnr = bufnr })
    for _, client in ipairs(clients) do
      if client.name == "autoopt" then
        return client
      end
    end
    return nil
  end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == "autoopt" then
      return client
    end
  end
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.bo.filetype == "python", "not a python buffer: " .. vim.bo.filetype)
  local client
  vim.wait(60000, function()
    client = attached(bufnr)
    return client ~= nil
  end, 50)
  assert(client, "the config attached no autoopt client")
  print("root: " .. client.config.root_dir)

  local arrived = vim.wait(60000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  assert(arrived, "no diagnostics arrived")
  local diagnostic = vim.diagnostic.get(bufnr)[1]
  vim.api.nvim_win_set_cursor(0, { diagnostic.lnum + 1, diagnostic.col })

  local encoding = client.offset_encoding or "utf-16"
  local params = vim.lsp.util.make_range_params(0, encoding)
  local line_diagnostics = vim.lsp.diagnostic.get_line_diagnostics -- gone in later versions
  params.context = { diagnostics = line_diagnostics and line_diagnostics(bufnr) or {} }
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 60000)
  local actions = assert(responses and responses[client.id], "no code action response").result
  local action = assert(actions and actions[1], "no code action")
  if not action.edit then
    local resolved = client.request_sync("codeAction/resolve", action, 60000, bufnr)
    action = assert(resolved and resolved.result, "codeAction/resolve failed")
  end
  vim.lsp.util.apply_workspace_edit(action.edit, encoding)
  vim.cmd("write")
  print("applied: " .. action.title)
end

local ok, err = pcall(run)
if not ok then
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cquit")
end
vim.cmd("qall!")
